// Whispers with the real client in Node (started by WhisperClientsTest, which passes the application's address in
// CABLE_BASE): @anycable/core's channel.whisper on ChatChannel, whose rooms allow whispers (except "nowhisper").
// The other subscribers hear it, on either protocol; the whispering connection never hears its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { inbox } from "./inbox.js";
import { BASE, WS_BASE, RUN } from "./node-env.js";

const TIMEOUT = 90_000;

async function join(createCable, user, protocol, room) {
  const cable = createCable(`${WS_BASE}/cable?user=${user}`, { websocketImplementation: WebSocket, protocol, logLevel: "warn" });
  const events = inbox(TIMEOUT);
  const channel = cable.subscribeTo("ChatChannel", { room });
  channel.on("message", (message) => events.push(message));
  await channel.ensureSubscribed();
  return { cable, channel, events };
}

test("@anycable/core: a whisper reaches the other subscribers, never the sender", async () => {
  const { createCable } = await import("@anycable/core");
  const room = `typing-${RUN}`;
  const ann = await join(createCable, `ann${RUN}`, "actioncable-v1-ext-json", room);
  const bob = await join(createCable, `bob${RUN}`, "actioncable-v1-json", room);
  const carol = await join(createCable, `carol${RUN}`, "actioncable-v1-ext-json", room);
  const seenByAnn = [];
  ann.channel.on("message", (message) => seenByAnn.push(message));
  try {
    ann.channel.whisper({ event: "typing", user: "ann" });
    for (const other of [bob, carol]) {
      const heard = await other.events.next((m) => m.event === "typing", "ann's whisper");
      // The server stamps the sender (ChannelHandler.whispered's default): what the client claimed is not trusted.
      assert.deepEqual(heard, { event: "typing", user: "ann", from: `ann${RUN}` });
    }
    // bob answers; ann hears him, and nothing of her own before him (one whisper channel, in order).
    bob.channel.whisper({ event: "typing", user: "bob" });
    await ann.events.next((m) => m.user === "bob", "bob's whisper");
    assert.deepEqual(seenByAnn, [{ event: "typing", user: "bob", from: `bob${RUN}` }]);
  } finally {
    for (const client of [ann, bob, carol]) client.cable.disconnect();
  }
});
