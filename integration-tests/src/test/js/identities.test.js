// Per-identity delivery and remote disconnect with the real clients in Node (started by IdentityClientsTest, which
// passes the application's address in CABLE_BASE): InboxChannel streams the connection's own identity channel,
// /identities/<user>/broadcast reaches it, and /identities/<user>/disconnect sends
// {"type":"disconnect","reason":"remote","reconnect":...} to every session of that user.
import { test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { inbox } from "./inbox.js";
import { BASE, WS_BASE, RUN } from "./node-env.js";

const TIMEOUT = 90_000;

async function post(path, body = "") {
  const response = await fetch(BASE + path, { method: "POST", headers: { "Content-Type": "text/plain" }, body });
  assert.equal(response.status, 202, `POST ${path}: ${response.status} ${await response.text()}`);
}

test("@rails/actioncable: broadcast_to reaches the inbox, a remote disconnect without reconnect ends it", async () => {
  const ActionCable = await import("@rails/actioncable");
  ActionCable.adapters.WebSocket = WebSocket;
  const user = `rails${RUN}`;
  const consumer = ActionCable.createConsumer(`${WS_BASE}/cable?user=${user}`);
  const events = inbox(TIMEOUT);
  consumer.subscriptions.create({ channel: "InboxChannel" }, {
    connected() { events.push({ type: "connected" }); },
    disconnected(details) { events.push({ type: "disconnected", willAttemptReconnect: details.willAttemptReconnect }); },
    received(message) { events.push({ type: "received", message }); },
  });
  try {
    await events.next((e) => e.type === "connected", "confirmation");
    await post(`/identities/${user}/broadcast`, JSON.stringify({ text: "for you" }));
    await events.next((e) => e.type === "received" && e.message.text === "for you", "broadcast to the identity");
    await post(`/identities/${user}/disconnect?reconnect=false`);
    const gone = await events.next((e) => e.type === "disconnected", "remote disconnect");
    assert.equal(gone.willAttemptReconnect, false);
  } finally {
    consumer.disconnect();
  }
});

test("@anycable/core: reason remote; reconnect true reconnects, false closes for good", async () => {
  const { createCable } = await import("@anycable/core");
  const user = `anycable${RUN}`;
  const cable = createCable(`${WS_BASE}/cable?user=${user}`, {
    websocketImplementation: WebSocket,
    protocol: "actioncable-v1-json",
    logLevel: "warn",
  });
  const events = inbox(TIMEOUT);
  const channel = cable.subscribeTo("InboxChannel");
  channel.on("message", (message) => events.push({ type: "received", message }));
  cable.on("connect", (event) => events.push({ type: "connected", reconnect: !!(event && event.reconnect) }));
  cable.on("disconnect", (event) => events.push({ type: "disconnected", reason: event && event.reason }));
  cable.on("close", (event) => events.push({ type: "closed", reason: event && event.reason }));
  try {
    await channel.ensureSubscribed();
    await post(`/identities/${user}/broadcast`, JSON.stringify({ text: "first" }));
    await events.next((e) => e.type === "received" && e.message.text === "first", "broadcast to the identity");

    await post(`/identities/${user}/disconnect?reconnect=true`);
    const dropped = await events.next((e) => e.type === "disconnected", "remote disconnect with reconnect");
    assert.equal(dropped.reason, "remote");
    await events.next((e) => e.type === "connected" && e.reconnect, "reconnection");
    await channel.ensureSubscribed();
    await post(`/identities/${user}/broadcast`, JSON.stringify({ text: "again" }));
    await events.next((e) => e.type === "received" && e.message.text === "again", "broadcast after reconnect");

    await post(`/identities/${user}/disconnect?reconnect=false`);
    const closed = await events.next((e) => e.type === "closed", "remote disconnect without reconnect");
    assert.equal(closed.reason, "remote");
    assert.equal(cable.state, "closed");
  } finally {
    cable.disconnect();
  }
});
