// The extended Action Cable protocol (actioncable-v1-ext-json) with the real @anycable/core client in Node, through
// a TCP proxy that can blackhole a connection, and raw-frame conformance with ws. Started by ExtProtocolClientsTest,
// which passes the application's address in CABLE_BASE.
import { test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { BASE, RUN, post, tcpProxy, until } from "./browser-support.js";

const WS_BASE = BASE.replace(/^http/, "ws");
const EXT = "actioncable-v1-ext-json";

globalThis.document ??= { visibilityState: "visible", addEventListener() {}, removeEventListener() {} };
globalThis.addEventListener ??= () => {};
globalThis.removeEventListener ??= () => {};

/** A ws WebSocket that records every frame, numbered by connection. */
function recordingWebSocket(frames) {
  let connections = 0;
  return class RecordingWebSocket extends WebSocket {
    constructor(url, protocols, options) {
      super(url, protocols, options);
      const connection = ++connections;
      this.on("message", (data) => frames.push({ connection, dir: "in", frame: JSON.parse(data.toString()) }));
      const send = this.send.bind(this);
      this.send = (data, ...rest) => {
        frames.push({ connection, dir: "out", frame: JSON.parse(data) });
        return send(data, ...rest);
      };
    }
  };
}

/** The frames of one identifier on one connection, in wire order. */
function framesOf(frames, connection, identifier) {
  return frames.filter((f) => f.connection === connection && f.dir === "in" && f.frame.identifier === identifier)
    .map((f) => f.frame);
}

function seqs(received) {
  return received.map(({ message }) => message.seq);
}

async function recoveringClient(room, frames) {
  const { createCable } = await import("@anycable/core");
  const proxy = await tcpProxy();
  const cable = createCable(`ws://127.0.0.1:${proxy.port}/cable?user=ext-${room}`, {
    protocol: EXT,
    websocketImplementation: recordingWebSocket(frames),
    logLevel: "warn",
  });
  const connects = [];
  cable.on("connect", (event) => connects.push(event));
  const channel = cable.subscribeTo("ChatChannel", { room });
  const received = [];
  const infos = [];
  channel.on("message", (message, meta) => received.push({ message, meta }));
  channel.on("info", (info) => infos.push(info));
  await channel.ensureSubscribed();
  const identifier = JSON.stringify({ channel: "ChatChannel", room });
  await until(() => frames.some((f) => f.frame.type === "confirm_history"), "confirm_history of the first subscribe");
  return { proxy, cable, channel, connects, received, infos, identifier };
}

test("ext: a network drop while broadcasts continue: every message exactly once, in order, replay before confirm_history", async () => {
  const room = `drop-${RUN}`;
  const frames = [];
  const client = await recoveringClient(room, frames);
  try {
    const welcome = frames.find((f) => f.frame.type === "welcome").frame;
    assert.ok(typeof welcome.sid === "string" && welcome.sid.length >= 16, "welcome has a sid");
    assert.equal(welcome.restored, undefined);
    const subscribe = frames.find((f) => f.dir === "out" && f.frame.command === "subscribe").frame;
    assert.equal(typeof subscribe.history.since, "number");
    assert.deepEqual(subscribe.history.streams, {});
    assert.deepEqual(framesOf(frames, 1, client.identifier).map((f) => f.type),
      ["confirm_subscription", "confirm_history"], "nothing replayed on the first subscribe");

    for (let seq = 1; seq <= 50; seq++) await post(`/broadcast/chat:${room}`, JSON.stringify({ seq }));
    await until(() => client.received.length === 50, "50 messages");
    const epoch = client.received[0].meta.epoch;
    client.received.forEach(({ message, meta }) => {
      assert.equal(meta.epoch, epoch);
      assert.equal(meta.stream, `chat:${room}`);
      assert.equal(meta.offset, message.seq);
    });

    client.proxy.blackhole();
    for (let seq = 51; seq <= 150; seq++) await post(`/broadcast/chat:${room}`, JSON.stringify({ seq }));
    // Meanwhile a producer goes on while the client notices the stale connection and reconnects.
    const producer = (async () => {
      for (let seq = 151; seq <= 250; seq++) {
        await post(`/broadcast/chat:${room}`, JSON.stringify({ seq }));
        await new Promise((wake) => setTimeout(wake, 20));
      }
    })();
    await producer;
    await until(() => client.received.length >= 250, "250 messages after the reconnect");
    await new Promise((wake) => setTimeout(wake, 500));

    assert.deepEqual(seqs(client.received), Array.from({ length: 250 }, (_, i) => i + 1), "exactly once, in order");
    client.received.forEach(({ message, meta }) => {
      assert.equal(meta.epoch, epoch);
      assert.equal(meta.offset, message.seq, "offset - seq is constant");
    });
    const reconnect = client.connects.find((event) => event.reconnect);
    assert.ok(reconnect, "reconnected");
    assert.equal(reconnect.restored, false);
    const last = Math.max(...frames.filter((f) => f.connection === 1 && f.frame.offset).map((f) => f.frame.offset));
    const resubscribe = frames.find((f) => f.connection === 2 && f.dir === "out" && f.frame.command === "subscribe");
    assert.deepEqual(resubscribe.frame.history.streams[`chat:${room}`], { epoch, offset: last });
    const second = framesOf(frames, 2, client.identifier);
    assert.equal(second[0].type, "confirm_subscription");
    const answer = second.findIndex((f) => f.type === "confirm_history");
    assert.ok(answer > 0, "confirm_history on the second connection");
    const offsets = second.filter((f) => f.offset).map((f) => f.offset);
    assert.deepEqual(offsets, Array.from({ length: 250 - last }, (_, i) => last + 1 + i),
      "replay then live: consecutive offsets after the last one received");
    assert.ok(second.slice(1, answer).every((f) => f.offset), "only replayed broadcasts before confirm_history");
    assert.ok(client.infos.some((info) => info.type === "history_received"));
  } finally {
    client.cable.disconnect();
    client.proxy.close();
  }
});

test("ext: history lost (channel reset while away): reject_history, nothing replayed, live continues", async () => {
  const room = `lost-${RUN}`;
  const frames = [];
  const client = await recoveringClient(room, frames);
  try {
    for (let seq = 1; seq <= 5; seq++) await post(`/broadcast/chat:${room}`, JSON.stringify({ seq }));
    await until(() => client.received.length === 5, "5 messages");
    client.proxy.blackhole();
    const reset = await fetch(`${BASE}/history-admin/chat:${room}`, { method: "DELETE" });
    assert.equal(reset.status, 200);
    for (let seq = 6; seq <= 8; seq++) await post(`/broadcast/chat:${room}`, JSON.stringify({ seq }));
    await until(() => client.infos.some((info) => info.type === "history_not_found"), "history_not_found");
    await post(`/broadcast/chat:${room}`, JSON.stringify({ seq: 9 }));
    await until(() => client.received.length === 6, "the live message");
    assert.deepEqual(seqs(client.received), [1, 2, 3, 4, 5, 9], "nothing replayed, live continues");
    assert.notEqual(client.received[5].meta.epoch, client.received[0].meta.epoch, "a new epoch");
    assert.equal(client.received[5].meta.offset, 4);
    const second = framesOf(frames, 2, client.identifier).map((f) => f.type || "message");
    assert.deepEqual(second, ["confirm_subscription", "reject_history", "message"]);
  } finally {
    client.cable.disconnect();
    client.proxy.close();
  }
});

/** A raw ws client; next(predicate) awaits a frame, drain() returns what came unasked. */
async function rawClient(protocol, user) {
  const socket = new WebSocket(`${WS_BASE}/cable?user=${user}`, protocol);
  const frames = [];
  socket.on("message", (data) => {
    const frame = JSON.parse(data.toString());
    if (frame.type !== "ping") frames.push(frame);
  });
  await new Promise((open, fail) => { socket.on("open", open); socket.on("error", fail); });
  return {
    socket,
    frames,
    send: (frame) => socket.send(JSON.stringify(frame)),
    async next(predicate, what) {
      const found = await until(() => frames.find(predicate), what);
      frames.splice(frames.indexOf(found), 1);
      return found;
    },
  };
}

test("ext: raw-frame conformance of the history step (section 4-D)", async () => {
  const room = `raw-${RUN}`;
  const stream = `chat:${room}`;
  for (let seq = 1; seq <= 3; seq++) await post(`/broadcast/${stream}`, JSON.stringify({ seq }));
  const raw = await rawClient(EXT, "raw-ext");
  try {
    assert.equal(raw.socket.protocol, EXT);
    const welcome = await raw.next((f) => f.type === "welcome", "welcome");
    assert.deepEqual(Object.keys(welcome).sort(), ["sid", "type"]);
    const id = (n) => JSON.stringify({ channel: "ChatChannel", room, n });
    // One identifier per case, all streaming the same channel.
    raw.send({ command: "subscribe", identifier: id(1), history: { since: Math.floor(Date.now() / 1000) - 30 } });
    const sinceFrames = [];
    for (let i = 0; i < 5; i++) sinceFrames.push(await raw.next((f) => f.identifier === id(1), `since frame ${i}`));
    assert.equal(sinceFrames[0].type, "confirm_subscription");
    assert.deepEqual(sinceFrames.slice(1, 4).map((f) => [f.message.seq, f.offset, f.stream_id]),
      [[1, 1, stream], [2, 2, stream], [3, 3, stream]], "since now-30 replays the earlier messages");
    assert.equal(sinceFrames[4].type, "confirm_history");
    const epoch = sinceFrames[1].epoch;

    const cases = [
      [2, { epoch, offset: 2 }, ["confirm_subscription", 3, "confirm_history"]],
      [3, { epoch, offset: 3 }, ["confirm_subscription", "confirm_history"]],
      [4, { epoch: "not-the-epoch", offset: 2 }, ["confirm_subscription", "reject_history"]],
      [5, { epoch, offset: 9 }, ["confirm_subscription", "reject_history"]],
    ];
    for (const [n, position, expected] of cases) {
      raw.send({ command: "subscribe", identifier: id(n), history: { streams: { [stream]: position } } });
      const got = [];
      for (const _ of expected) {
        const frame = await raw.next((f) => f.identifier === id(n), `case ${n}`);
        got.push(frame.type || frame.offset);
      }
      assert.deepEqual(got, expected, `case ${JSON.stringify(position)}`);
    }
    // No reply: history for an identifier that is not subscribed, a pong, a subscribe without history.
    raw.send({ command: "history", identifier: id(99), history: { streams: { [stream]: { epoch, offset: 1 } } } });
    raw.send({ command: "pong" });
    raw.send({ command: "subscribe", identifier: id(6) });
    assert.equal((await raw.next((f) => f.identifier === id(6), "plain subscribe")).type, "confirm_subscription");
    await post(`/broadcast/${stream}`, JSON.stringify({ seq: 4 }));
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const live = await raw.next((f) => f.identifier === id(n), `live on ${n}`);
      assert.deepEqual([live.message.seq, live.stream_id, live.epoch, live.offset], [4, stream, epoch, 4]);
    }
    await new Promise((wake) => setTimeout(wake, 300));
    assert.deepEqual(raw.frames, [], "nothing else was sent (no reply to history or pong)");
  } finally {
    raw.socket.close();
  }
});

test("v1-json is unchanged: no positions, no sid, history gets no reply", async () => {
  const room = `v1-${RUN}`;
  const raw = await rawClient("actioncable-v1-json", "raw-v1");
  try {
    assert.deepEqual(await raw.next((f) => f.type === "welcome", "welcome"), { type: "welcome" });
    const identifier = JSON.stringify({ channel: "ChatChannel", room });
    raw.send({ command: "subscribe", identifier, history: { since: 1 } });
    assert.equal((await raw.next((f) => f.identifier === identifier, "confirm")).type, "confirm_subscription");
    raw.send({ command: "history", identifier, history: { since: 1 } });
    await post(`/broadcast/chat:${room}`, JSON.stringify({ seq: 1 }));
    const frame = await raw.next((f) => f.identifier === identifier, "broadcast");
    assert.deepEqual(frame, { identifier, message: { seq: 1 } }, "byte-identical v1-json frame");
    await new Promise((wake) => setTimeout(wake, 300));
    assert.deepEqual(raw.frames, []);
  } finally {
    raw.socket.close();
  }
});
