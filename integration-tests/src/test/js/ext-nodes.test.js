// Recovery across a node restart and a move to another node with the real @anycable/core client (extended protocol),
// two nodes as separate processes on one database. Started by RecoveryNodesIT, which passes node B's address in
// CABLE_BASE, node A's port in CABLE_NODE_A_PORT and its control endpoint (stop-a, start-a) in CABLE_CONTROL.
import { test } from "node:test";
import assert from "node:assert/strict";
import { recordingWebSocket, switchingProxy } from "./switching-proxy.js";
import "./node-env.js";

const NODE_B = process.env.CABLE_BASE;
const CONTROL = process.env.CABLE_CONTROL;
assert.ok(NODE_B && CONTROL && process.env.CABLE_NODE_A_PORT, "CABLE_BASE, CABLE_CONTROL and CABLE_NODE_A_PORT");
const NODE_B_PORT = Number(new URL(NODE_B).port);
const TIMEOUT = 240_000;
const EXT = "actioncable-v1-ext-json";
const GAP = 30; // messages broadcast while the client cannot reach any node, at least, in each phase

async function until(condition, what) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

async function control(action) {
  const response = await fetch(`${CONTROL}/${action}`, { method: "POST" });
  const body = await response.text();
  assert.equal(response.status, 200, `${action}: ${body}`);
  return body;
}

/** Broadcasts {seq: 1, 2, ...} through node B, each waiting for its commit (202), until stopped. */
function producer(room) {
  const state = { posted: 0, stopped: false, failure: null };
  state.done = (async () => {
    while (!state.stopped) {
      const seq = state.posted + 1;
      const response = await fetch(`${NODE_B}/broadcast/chat:${room}`, {
        method: "POST", headers: { "Content-Type": "text/plain" }, body: JSON.stringify({ seq }),
      });
      if (response.status !== 202) {
        state.failure = `seq ${seq}: ${response.status} ${await response.text()}`;
        return;
      }
      state.posted = seq;
      await new Promise((wake) => setTimeout(wake, 10));
    }
  })();
  state.atLeast = (count, what) => until(() => {
    if (state.failure) throw new Error(state.failure);
    return state.posted >= count;
  }, what);
  return state;
}

test("ext: node A restarts, then the client moves to node B: every message once, in order, replay before confirm_history", async () => {
  const room = `nodes-${Date.now().toString(36)}`;
  const identifier = JSON.stringify({ channel: "ChatChannel", room });
  const frames = [];
  const connections = [];
  const proxy = await switchingProxy(Number(process.env.CABLE_NODE_A_PORT), "A");
  const { createCable } = await import("@anycable/core");
  const cable = createCable(`ws://127.0.0.1:${proxy.port}/cable?user=nodes-${room}`, {
    protocol: EXT,
    websocketImplementation: recordingWebSocket(frames, connections, proxy),
    logLevel: "warn",
  });
  const channel = cable.subscribeTo("ChatChannel", { room });
  const received = [];
  channel.on("message", (message, meta) => received.push({ message, meta }));
  const confirmedOn = (label) => frames.some((f) => f.frame.type === "confirm_history" && f.frame.identifier === identifier
    && connections[f.connection - 1].label === label);
  let messages = { stopped: true };
  try {
    await channel.ensureSubscribed();
    await until(() => confirmedOn("A"), "confirm_history from node A");
    messages = producer(room);
    await messages.atLeast(50, "50 broadcasts");
    await until(() => received.length >= 50, "50 messages through node A");

    // (i) Node A stops (SIGTERM) and starts again on a new port while the producer goes on through node B; the client
    // keeps reconnecting through the proxy, which forwards to A's old port (refused) until A is back.
    const beforeStop = messages.posted;
    await control("stop-a");
    await messages.atLeast(beforeStop + GAP, "broadcasts while node A is down");
    proxy.target(Number(await control("start-a")), "A2");
    await until(() => confirmedOn("A2"), "confirm_history from the restarted node A");
    const afterRestart = messages.posted;
    await until(() => received.length >= afterRestart, "the messages up to the restart's end, through node A");

    // (ii) The client moves to node B: its connection drops and it cannot reconnect until the proxy sends it to B.
    proxy.refuse();
    const beforeMove = messages.posted;
    await messages.atLeast(beforeMove + GAP, "broadcasts while the client is between nodes");
    proxy.target(NODE_B_PORT, "B");
    await until(() => confirmedOn("B"), "confirm_history from node B");
    await messages.atLeast(messages.posted + 20, "live broadcasts after the move");
    messages.stopped = true;
    await messages.done;
    assert.equal(messages.failure, null);
    const last = messages.posted;
    await until(() => received.some(({ message }) => message.seq === last), `seq ${last}`);

    // Exactly once, in order, one epoch; offsets are the seqs (a fresh channel).
    assert.deepEqual(received.map(({ message }) => message.seq), Array.from({ length: last }, (_, i) => i + 1),
      "every message exactly once, in order");
    const epoch = received[0].meta.epoch;
    for (const { message, meta } of received) {
      assert.equal(meta.epoch, epoch, "one epoch across restart and move");
      assert.equal(meta.offset, message.seq);
    }

    // On the wire, per connection: confirm_subscription, the replay, confirm_history, live; and the offsets of all
    // connections together are 1..last, each once (a frame lost or repeated at a seam shows here).
    const wireOffsets = [];
    const replayed = {};
    for (const connection of connections) {
      const own = frames.filter((f) => f.connection === connection.number && f.frame.identifier === identifier)
        .map((f) => f.frame);
      if (own.length === 0) continue;
      assert.equal(own[0].type, "confirm_subscription", `connection ${connection.number} (${connection.label})`);
      const answer = own.findIndex((f) => f.type === "confirm_history");
      assert.ok(!own.some((f) => f.type === "reject_history"), `no reject_history on ${connection.label}`);
      const confirmed = answer > 0 ? answer : own.length;
      assert.ok(own.slice(1, confirmed).every((f) => typeof f.offset === "number"), "only broadcasts before confirm_history");
      assert.ok(own.slice(confirmed + 1).every((f) => typeof f.offset === "number"), "only broadcasts after it");
      if (answer > 0) replayed[connection.label] = (replayed[connection.label] ?? 0) + answer - 1;
      wireOffsets.push(...own.filter((f) => typeof f.offset === "number").map((f) => f.offset));
    }
    assert.deepEqual(wireOffsets, Array.from({ length: last }, (_, i) => i + 1), "wire offsets over all connections");
    assert.ok(replayed.A2 >= GAP, `the restarted node replayed what was missed (${replayed.A2})`);
    assert.ok(replayed.B >= GAP, `node B replayed what was missed (${replayed.B})`);
    console.log(`ext-nodes: ${last} messages, replayed ${JSON.stringify(replayed)}, ${connections.length} connection attempts`);
  } finally {
    messages.stopped = true;
    cable.disconnect();
    proxy.close();
  }
});
