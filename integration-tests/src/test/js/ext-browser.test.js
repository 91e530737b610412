// @anycable/web over the extended protocol (actioncable-v1-ext-json) in headless Chromium, through a TCP proxy that
// blackholes or resets the browser's connection while broadcasts go on. Started by ExtBrowserClientsTest, which passes
// the application's address in CABLE_BASE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, RUN, IMPORT_MAP, post, until, tcpProxy, withBrowser, servePage } from "./browser-support.js";

const EXT = "actioncable-v1-ext-json";

/**
 * A page with one @anycable/web cable over the extended protocol, subscribed to ChatChannel's room. It records every
 * frame by WebSocket (window.wire), every message with its meta (window.received), channel infos and cable events.
 */
function chatPage(room) {
  return `<!doctype html><html><head>${IMPORT_MAP}</head><body><script type="module">
    import { createCable } from "@anycable/web";
    import { backoffWithJitter } from "@anycable/core";
    window.wire = [];
    window.received = [];
    window.infos = [];
    window.events = [];
    let sockets = 0;
    class RecordingWebSocket extends WebSocket {
      constructor(url, protocols) {
        super(url, protocols);
        this.connection = ++sockets;
        this.addEventListener("message", (e) =>
          window.wire.push({ connection: this.connection, dir: "in", frame: JSON.parse(e.data) }));
      }
      send(data) {
        window.wire.push({ connection: this.connection, dir: "out", frame: JSON.parse(data) });
        super.send(data);
      }
    }
    const cable = createCable("ws://" + location.host + "/cable?user=chromium-ext-${room}", {
      protocol: "${EXT}",
      websocketImplementation: RecordingWebSocket,
      logLevel: "warn",
      // Retry within a second or two (the default starts at the 3 s ping interval and doubles).
      reconnectStrategy: backoffWithJitter(500, { maxInterval: 2000 }),
    });
    cable.on("connect", (e) => window.events.push({ type: "connect", reconnect: e.reconnect, restored: e.restored }));
    cable.on("disconnect", () => window.events.push({ type: "disconnect" }));
    const channel = cable.subscribeTo("ChatChannel", { room: "${room}" });
    channel.on("message", (message, meta) => window.received.push({ message, meta }));
    channel.on("info", (info) => window.infos.push(info.type));
    window.cable = cable;
  </script></body></html>`;
}

const state = (page) => page.evaluate(() => ({
  wire: window.wire, received: window.received, infos: window.infos, events: window.events,
}));

/** The frames of one identifier in wire order, grouped by the WebSocket (connection number) that carried them. */
function framesByConnection(wire, identifier) {
  const byConnection = new Map();
  for (const { connection, dir, frame } of wire) {
    if (dir !== "in" || frame.identifier !== identifier) continue;
    if (!byConnection.has(connection)) byConnection.set(connection, []);
    byConnection.get(connection).push(frame);
  }
  return [...byConnection.entries()].sort((a, b) => a[0] - b[0]).map(([, frames]) => frames);
}

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function broadcast(room, from, to, pause = 0) {
  for (let seq = from; seq <= to; seq++) {
    await post(`/broadcast/chat:${room}`, JSON.stringify({ seq }));
    if (pause) await new Promise((wake) => setTimeout(wake, pause));
  }
}

/**
 * Cuts the browser's connection with cut (blackhole or reset) and keeps the server unreachable while `missed`
 * broadcasts are committed, until the client has tried (and failed) to reconnect at least once; then lets it in again
 * while a producer continues up to `last`, and waits for the sentinel `last`.
 */
async function dropWhileBroadcasting(page, proxy, room, cut, missed, last) {
  const disconnects = () => page.evaluate(() => window.events.filter((e) => e.type === "disconnect").length);
  const before = await disconnects();
  const refused = proxy.refused();
  proxy.down();
  cut();
  await broadcast(room, missed[0], missed[1]);
  await until(async () => (await disconnects()) > before, "the disconnect");
  await until(() => proxy.refused() > refused, "a refused reconnection attempt");
  proxy.up();
  await broadcast(room, missed[1] + 1, last, 20);
  await until(() => page.evaluate((n) => window.received.some((r) => r.message.seq === n), last), `message ${last}`);
}

/**
 * On the connection that re-subscribed: confirm_subscription, the replay (consecutive offsets from `from`, covering at
 * least up to `replayedAtLeast`), confirm_history, then live messages that continue the offsets up to `last`.
 */
function assertRecovered(frames, from, replayedAtLeast, last) {
  assert.equal(frames[0].type, "confirm_subscription");
  const answer = frames.findIndex((f) => f.type === "confirm_history");
  assert.ok(answer > 0, `confirm_history on the new connection: ${JSON.stringify(frames.map((f) => f.type || f.offset))}`);
  const replay = frames.slice(1, answer);
  assert.ok(replay.every((f) => f.offset), "only broadcasts between confirm_subscription and confirm_history");
  assert.ok(replay.length >= replayedAtLeast - from + 1,
    `the replay holds what was committed while away (${from}..${replayedAtLeast}), got ${replay.length}`);
  assert.deepEqual(frames.filter((f) => f.offset).map((f) => f.offset), range(from, last),
    "replay then live: consecutive offsets after the last one received, nothing else");
  assert.ok(frames.slice(answer + 1).every((f) => f.offset), "live after confirm_history");
}

test("@anycable/web in Chromium, network drops (blackhole, then reset) while broadcasts continue: every message exactly once, in order", async () => {
  const room = `web-drop-${RUN}`;
  const identifier = JSON.stringify({ channel: "ChatChannel", room });
  const proxy = await tcpProxy();
  try {
    await withBrowser(async (page) => {
      await servePage(page, proxy.base, chatPage(room));
      await until(() => page.evaluate(() => window.infos?.includes("history_received")), "the first confirm_history");
      let { wire } = await state(page);
      const welcome = wire.find((f) => f.frame.type === "welcome").frame;
      assert.ok(typeof welcome.sid === "string" && welcome.sid.length >= 16, "welcome has a sid");
      const subscribe = wire.find((f) => f.dir === "out" && f.frame.command === "subscribe").frame;
      assert.equal(typeof subscribe.history.since, "number", "the first subscribe asks for history since the page started");
      assert.deepEqual(framesByConnection(wire, identifier)[0].map((f) => f.type), ["confirm_subscription", "confirm_history"]);

      await broadcast(room, 1, 50);
      await until(() => page.evaluate(() => window.received.length === 50), "50 messages");

      // 1. The network path dies silently: only the missing pings tell the client.
      await dropWhileBroadcasting(page, proxy, room, () => proxy.blackhole(), [51, 150], 250);
      // 2. The connection is reset.
      await dropWhileBroadcasting(page, proxy, room, () => proxy.reset(), [251, 300], 350);

      const { received, events, infos } = await state(page);
      ({ wire } = await state(page));
      assert.deepEqual(received.map((r) => r.message.seq), range(1, 350), "exactly once, in order");
      const epoch = received[0].meta.epoch;
      received.forEach(({ message, meta }) => {
        assert.equal(meta.stream, `chat:${room}`);
        assert.equal(meta.epoch, epoch);
        assert.equal(meta.offset, message.seq, "offset = seq: one channel, one epoch");
      });
      const connects = events.filter((e) => e.type === "connect");
      assert.deepEqual(connects.map((e) => [e.reconnect, e.restored]), [[false, false], [true, false], [true, false]]);
      assert.equal(infos.filter((i) => i === "history_received").length, 3);

      const subscribed = framesByConnection(wire, identifier);
      assert.equal(subscribed.length, 3, "subscribed on three connections");
      assertRecovered(subscribed[1], 51, 150, 250);
      assertRecovered(subscribed[2], 251, 300, 350);
      const resubscribes = wire.filter((f) => f.dir === "out" && f.frame.command === "subscribe").map((f) => f.frame);
      assert.deepEqual(resubscribes[1].history.streams[`chat:${room}`], { epoch, offset: 50 });
      assert.deepEqual(resubscribes[2].history.streams[`chat:${room}`], { epoch, offset: 250 });
    });
  } finally {
    proxy.close();
  }
});

/** Loses the connection, changes the stored history with change, reconnects; expects reject_history and live. */
async function historyLost(room, change) {
  const identifier = JSON.stringify({ channel: "ChatChannel", room });
  const proxy = await tcpProxy();
  try {
    await withBrowser(async (page) => {
      await servePage(page, proxy.base, chatPage(room));
      await until(() => page.evaluate(() => window.infos?.includes("history_received")), "the first confirm_history");
      await broadcast(room, 1, 5);
      await until(() => page.evaluate(() => window.received.length === 5), "5 messages");
      proxy.down();
      proxy.reset();
      await until(() => page.evaluate(() => window.events.some((e) => e.type === "disconnect")), "the disconnect");
      const refused = proxy.refused();
      await change();
      await until(() => proxy.refused() > refused, "a refused reconnection attempt");
      proxy.up();
      await until(() => page.evaluate(() => window.infos.includes("history_not_found")), "history_not_found");
      await broadcast(room, 9, 9);
      await until(() => page.evaluate(() => window.received.length === 6), "the live message");
      const { received, wire } = await state(page);
      assert.deepEqual(received.map((r) => r.message.seq), [1, 2, 3, 4, 5, 9], "nothing replayed, live continues");
      const subscribed = framesByConnection(wire, identifier);
      assert.equal(subscribed.length, 2);
      assert.deepEqual(subscribed[1].map((f) => f.type || "message"), ["confirm_subscription", "reject_history", "message"]);
      return received;
    });
  } finally {
    proxy.close();
  }
}

test("@anycable/web in Chromium, history lost (epoch changed): reject_history, nothing replayed, live continues", async () => {
  const room = `web-epoch-${RUN}`;
  await historyLost(room, async () => {
    const reset = await fetch(`${BASE}/history-admin/chat:${room}`, { method: "DELETE" });
    assert.equal(reset.status, 200);
    await broadcast(room, 6, 8);
  });
});

test("@anycable/web in Chromium, history lost (trimmed): reject_history, nothing replayed, live continues", async () => {
  const room = `web-trim-${RUN}`;
  await historyLost(room, async () => {
    await broadcast(room, 6, 8);
    // Messages 6 and 7 are gone (as if trimmed); the channel keeps its epoch and offsets.
    const trim = await fetch(`${BASE}/history-admin/chat:${room}/messages?through=7`, { method: "DELETE" });
    assert.equal(trim.status, 200);
    assert.equal(await trim.text(), "7");
  });
});

