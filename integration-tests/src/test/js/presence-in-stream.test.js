// Presence in the channel's recoverable stream (quarkus.cable.presence.in-stream), with the real @anycable/core client
// on the extended protocol. Started by PresenceInStreamTest, which passes the application's address in CABLE_BASE.
// A watcher whose network drops misses a leave, a join and broadcasts between them; when it comes back it recovers
// them from its last position: in the order a live subscriber saw them, each once. An SSE reader from the start gets
// the same sequence.
import { test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { inbox } from "./inbox.js";
import { recordingWebSocket, switchingProxy } from "./switching-proxy.js";
import { BASE, RUN } from "./node-env.js";

const PORT = Number(new URL(BASE).port);
const TIMEOUT = 90_000;
const EXT = "actioncable-v1-ext-json";

async function until(condition, what) {
  const deadline = Date.now() + TIMEOUT;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

/** A client of ChatChannel's room: every message with its stream position, and the live presence frames. */
async function open(createCable, url, room, websocketImplementation = WebSocket) {
  const cable = createCable(url, { websocketImplementation, protocol: EXT, logLevel: "warn" });
  const channel = cable.subscribeTo("ChatChannel", { room });
  const messages = inbox(TIMEOUT);
  const received = [];
  channel.on("message", (message, meta) => {
    received.push({ message, offset: meta.offset, epoch: meta.epoch });
    messages.push(message);
  });
  await channel.ensureSubscribed();
  return { cable, channel, messages, received };
}

async function broadcast(room, seq) {
  const response = await fetch(`${BASE}/broadcast/chat:${room}`, {
    method: "POST", headers: { "Content-Type": "text/plain" }, body: JSON.stringify({ seq }),
  });
  assert.equal(response.status, 202, await response.text());
}

/** The first {@code count} messages of the room's SSE stream from its start (Last-Event-ID 0), parsed. */
async function sseFromStart(room, count) {
  const response = await fetch(`${BASE}/events/chat:${room}`, {
    headers: { Accept: "text/event-stream", "Last-Event-ID": "0" },
    signal: AbortSignal.timeout(TIMEOUT),
  });
  assert.equal(response.status, 200);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const messages = [];
  let buffer = "";
  while (messages.length < count) {
    const { value, done } = await reader.read();
    assert.ok(!done, `the SSE stream ended after ${messages.length} messages`);
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, end).split("\n");
      buffer = buffer.slice(end + 2);
      const type = lines.find((line) => line.startsWith("event:"))?.slice(6).trim() ?? "message";
      const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).replace(/^ /, ""));
      if (type === "message" && data.length > 0) messages.push(JSON.parse(data.join("\n")));
    }
  }
  await reader.cancel();
  return messages.slice(0, count);
}

const isSeq = (seq) => (m) => m.seq === seq;
const isPresence = (type, id) => (m) => m.$presence?.type === type && m.$presence?.id === id;

test("in-stream presence: a client that was away recovers the joins and leaves it missed, in order, once", async () => {
  const { createCable } = await import("@anycable/core");
  const room = `open-instream-${RUN}`; // an open room: ids are the clients' choice (ChatChannel)
  const identifier = JSON.stringify({ channel: "ChatChannel", room });
  const proxy = await switchingProxy(PORT, "app");
  const frames = [];
  const connections = [];
  const watcher = await open(createCable, `ws://127.0.0.1:${proxy.port}/cable?user=watcher${RUN}`, room,
    recordingWebSocket(frames, connections, proxy));
  const live = await open(createCable, `${BASE.replace(/^http/, "ws")}/cable?user=live${RUN}`, room);
  const bob = await open(createCable, `${BASE.replace(/^http/, "ws")}/cable?user=bob${RUN}`, room);
  const carol = await open(createCable, `${BASE.replace(/^http/, "ws")}/cable?user=carol${RUN}`, room);
  const watcherPresence = inbox(TIMEOUT);
  watcher.channel.on("presence", (event) => watcherPresence.push(event));
  try {
    // Both see bob's join as a message of the stream; the watcher also gets the live presence frame.
    await bob.channel.presence.join("bob", { name: "Bob" });
    await watcher.messages.next(isPresence("join", "bob"), "bob's join in the stream");
    await watcherPresence.next((e) => e.type === "join" && e.id === "bob", "bob's live presence frame");
    await broadcast(room, 1);
    await watcher.messages.next(isSeq(1), "seq 1");

    // The watcher's network drops. While it is away: bob leaves, a broadcast, carol joins, a broadcast; the live
    // subscriber sees each before the next step, so they are committed in this order.
    proxy.refuse();
    await bob.channel.presence.leave();
    await live.messages.next(isPresence("leave", "bob"), "bob's leave (live)");
    await broadcast(room, 2);
    await live.messages.next(isSeq(2), "seq 2 (live)");
    await carol.channel.presence.join("carol", { name: "Carol" });
    await live.messages.next(isPresence("join", "carol"), "carol's join (live)");
    await broadcast(room, 3);
    await live.messages.next(isSeq(3), "seq 3 (live)");

    // Back: the client re-subscribes with its last position and gets what it missed.
    proxy.target(PORT, "app");
    await watcher.messages.next(isSeq(3), "seq 3 after the watcher came back");

    const expected = [
      { $presence: { type: "join", id: "bob", info: { name: "Bob" } } },
      { seq: 1 },
      { $presence: { type: "leave", id: "bob" } },
      { seq: 2 },
      { $presence: { type: "join", id: "carol", info: { name: "Carol" } } },
      { seq: 3 },
    ];
    assert.deepEqual(live.received.map((r) => r.message), expected, "the live subscriber's stream");
    assert.deepEqual(watcher.received.map((r) => r.message), expected, "the recovered stream: each once, in order");
    // Positions: consecutive in a fresh channel, one epoch, the same on both clients.
    assert.deepEqual(watcher.received.map((r) => r.offset), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(live.received.map((r) => r.offset), [1, 2, 3, 4, 5, 6]);
    assert.equal(new Set([...watcher.received, ...live.received].map((r) => r.epoch)).size, 1);
    // On the wire, over both of the watcher's connections: every position once (nothing replayed twice).
    const wireOffsets = frames.filter((f) => f.frame.identifier === identifier && typeof f.frame.offset === "number")
      .map((f) => f.frame.offset);
    assert.deepEqual(wireOffsets, [1, 2, 3, 4, 5, 6], "offsets on the wire");
    assert.ok(connections.length >= 2, `the watcher reconnected (${connections.length} connections)`);
    // They came back as the replay of the watcher's history request (it had no socket when they were sent live).
    await until(() => frames.some((f) => f.connection > 1 && f.frame.identifier === identifier
      && f.frame.type === "confirm_history"), "confirm_history on the watcher's new connection");

    // Server-Sent Events from the stream's start: the same six, in the same order.
    assert.deepEqual(await sseFromStart(room, 6), expected, "SSE from Last-Event-ID 0");

    // Carol's connection ends without a leave: the TTL's reaper writes her leave, also into the stream, once.
    carol.cable.disconnect();
    await live.messages.next(isPresence("leave", "carol"), "carol's leave after the TTL");
    await broadcast(room, 4);
    await live.messages.next(isSeq(4), "seq 4");
    assert.deepEqual(live.received.slice(6).map((r) => [r.message, r.offset]),
      [[{ $presence: { type: "leave", id: "carol" } }, 7], [{ seq: 4 }, 8]]);
  } finally {
    for (const client of [watcher, live, bob, carol]) client.cable.disconnect();
    proxy.close();
  }
});
