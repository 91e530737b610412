// Not a node --test suite: a script driven by HttpBroadcastClientsTest. A @rails/actioncable consumer and an
// @anycable/web cable (extended protocol) in Node subscribe to ChatChannel room $ROOM; the script prints READY once
// both are confirmed; the Java test then POSTs to /_broadcast exactly what the anycable gem's http adapter posts
// (one single broadcast, then a batch); the script exits 0 once each client received {"n":1}..{"n":$COUNT} exactly,
// in order (and prints what it got otherwise).
import WebSocket from "ws";
import { BASE, WS_BASE } from "./node-env.js";

const ROOM = process.env.ROOM;
const COUNT = Number(process.env.COUNT);
const TIMEOUT = 120_000;

const received = { rails: [], anycable: [] };
const done = () => received.rails.length >= COUNT + 1 && received.anycable.length >= COUNT + 1;

const ActionCable = await import("@rails/actioncable");
ActionCable.adapters.WebSocket = WebSocket;
const consumer = ActionCable.createConsumer(`${WS_BASE}/cable?user=http-rails`);
const railsConfirmed = new Promise((confirmed) => {
  consumer.subscriptions.create({ channel: "ChatChannel", room: ROOM }, {
    connected: confirmed,
    received(message) { received.rails.push(message); },
  });
});

const { createCable } = await import("@anycable/web");
const cable = createCable(`${WS_BASE}/cable?user=http-anycable`, {
  websocketImplementation: WebSocket,
  protocol: "actioncable-v1-ext-json",
  logLevel: "warn",
});
const channel = cable.subscribeTo("ChatChannel", { room: ROOM });
channel.on("message", (message) => received.anycable.push(message));

await railsConfirmed;
await channel.ensureSubscribed();
console.log("READY");

const deadline = Date.now() + TIMEOUT;
while (!done() && Date.now() < deadline) {
  await new Promise((wake) => setTimeout(wake, 50));
}
consumer.disconnect();
cable.disconnect();
const expected = Array.from({ length: COUNT }, (_, i) => ({ n: i + 1 }));
let failed = false;
for (const [client, messages] of Object.entries(received)) {
  // The last message is the end marker the test sends after its requests were answered.
  const got = JSON.stringify(messages);
  const want = JSON.stringify([...expected, { end: true }]);
  if (got !== want) {
    failed = true;
    console.log(`${client} received ${got}`);
  } else {
    console.log(`${client} received ${COUNT} broadcasts exactly, in order`);
  }
}
process.exit(failed ? 1 : 0);
