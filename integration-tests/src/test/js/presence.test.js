// Presence with the real client in Node (started by PresenceClientsTest, which passes the application's address in
// CABLE_BASE): @anycable/core's channel.presence on ChatChannel, whose rooms have a presence set (except
// "nopresence"). Two tabs of one user are one id; info() agrees with the events; a leave comes with the last tab.
import { test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { inbox } from "./inbox.js";
import { BASE, WS_BASE, RUN } from "./node-env.js";

const TIMEOUT = 90_000;
const EXT = "actioncable-v1-ext-json";

async function open(createCable, user, room) {
  const cable = createCable(`${WS_BASE}/cable?user=${user}`, { websocketImplementation: WebSocket, protocol: EXT, logLevel: "warn" });
  const events = inbox(TIMEOUT);
  const channel = cable.subscribeTo("ChatChannel", { room });
  channel.on("presence", (event) => events.push(event));
  await channel.ensureSubscribed();
  return { cable, channel, events };
}

test("@anycable/core: join, info and leave, one id for two tabs", async () => {
  const { createCable } = await import("@anycable/core");
  const room = `open-presence-${RUN}`; // an open room: ids are the clients' choice (ChatChannel)
  const ann1 = await open(createCable, `ann${RUN}`, room);
  const ann2 = await open(createCable, `ann${RUN}`, room);
  const bob = await open(createCable, `bob${RUN}`, room);
  try {
    assert.deepEqual(await bob.channel.presence.info(), {}); // the empty set

    await ann1.channel.presence.join("ann", { name: "Ann" });
    assert.deepEqual(await bob.events.next((e) => e.type === "join", "ann's join"), { type: "join", id: "ann", info: { name: "Ann" } });
    await ann2.channel.presence.join("ann", { name: "Ann" }); // her second tab: no event
    await bob.channel.presence.join(42, "bob"); // @anycable/core sends the id as text
    assert.deepEqual(await bob.events.next((e) => e.type === "join", "bob's join"), { type: "join", id: "42", info: "bob" });
    // bob's info() is his cache of the set, kept current by the events; a fresh reader asks the server.
    const carol = await open(createCable, `carol${RUN}`, room);
    try {
      assert.deepEqual(await carol.channel.presence.info(), { ann: { name: "Ann" }, 42: "bob" });
    } finally {
      carol.cable.disconnect();
    }

    // The first tab leaves: ann stays. The second one leaves: ann is gone, and bob's next event says so.
    await ann1.channel.presence.leave();
    await ann2.channel.presence.leave();
    assert.deepEqual(await bob.events.next((e) => e.type === "leave", "ann's leave"), { type: "leave", id: "ann" });
    assert.deepEqual(await bob.channel.presence.info(), { 42: "bob" });
  } finally {
    for (const client of [ann1, ann2, bob]) client.cable.disconnect();
  }
});

test("@anycable/core: info() on a channel without a presence set fails instead of hanging", async () => {
  const { createCable } = await import("@anycable/core");
  const hal = await open(createCable, `hal${RUN}`, "nopresence");
  try {
    await assert.rejects(hal.channel.presence.info(), /failed to retrieve presence/);
  } finally {
    hal.cable.disconnect();
  }
});
