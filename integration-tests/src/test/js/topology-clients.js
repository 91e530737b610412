// Real clients for the topology cases (PostgresFailoverIT), driven by the Java test through stdin and stdout, not a
// node --test suite: the test owns the timeline (the database fault), this process only holds the clients.
//
// - "rec": @anycable/core speaking actioncable-v1-ext-json, which recovers a stream's history on a reconnect;
// - "live": @rails/actioncable (actioncable-v1-json), live only: a reconnect is a new subscription.
//
// Both are subscribed to ChatChannel ROOM on the node in CABLE_BASE, each through a TCP proxy of its own so that the
// test can cut their connections. Every event is one JSON line on stdout ({"c": client, "t": type, ...}). Commands,
// one per line on stdin: "drop" (reset every proxied connection: both clients reconnect by themselves), "exit".
import WebSocket from "ws";
import readline from "node:readline";
import { tcpProxy } from "./browser-support.js"; // which installs the browser globals both clients read (node-env.js)

const ROOM = process.env.ROOM;
const emit = (event) => process.stdout.write(JSON.stringify(event) + "\n");
const text = (message) => (message && typeof message === "object" ? message.m : String(message));

const recProxy = await tcpProxy();
const liveProxy = await tcpProxy();

/** ws, reporting the frames that answer a subscription and its history request. */
class ReportingWebSocket extends WebSocket {
  constructor(url, protocols, options) {
    super(url, protocols, options);
    this.on("message", (data) => {
      const frame = JSON.parse(data.toString());
      if (["confirm_subscription", "confirm_history", "reject_history", "reject_subscription"].includes(frame.type)) {
        emit({ c: "rec", t: "frame", type: frame.type });
      }
    });
  }
}

const { createCable } = await import("@anycable/core");
const cable = createCable(`ws://127.0.0.1:${recProxy.port}/cable?user=rec-${ROOM}`, {
  protocol: "actioncable-v1-ext-json",
  websocketImplementation: ReportingWebSocket,
  logLevel: "warn",
});
cable.on("connect", (event) => emit({ c: "rec", t: "connect", reconnect: !!(event && event.reconnect) }));
cable.on("disconnect", () => emit({ c: "rec", t: "disconnect" }));
const channel = cable.subscribeTo("ChatChannel", { room: ROOM });
channel.on("message", (message, meta) =>
  emit({ c: "rec", t: "msg", m: text(message), epoch: meta && meta.epoch, offset: meta && meta.offset }));
channel.on("info", (info) => emit({ c: "rec", t: "info", type: info && info.type }));

const ActionCable = await import("@rails/actioncable");
ActionCable.adapters.WebSocket = WebSocket;
const consumer = ActionCable.createConsumer(`ws://127.0.0.1:${liveProxy.port}/cable?user=live-${ROOM}`);
consumer.subscriptions.create({ channel: "ChatChannel", room: ROOM }, {
  connected(details) { emit({ c: "live", t: "connected", reconnected: !!(details && details.reconnected) }); },
  disconnected() { emit({ c: "live", t: "disconnected" }); },
  rejected() { emit({ c: "live", t: "rejected" }); },
  received(message) { emit({ c: "live", t: "msg", m: text(message) }); },
});

const finish = () => {
  cable.disconnect();
  consumer.disconnect();
  recProxy.close();
  liveProxy.close();
  setTimeout(() => process.exit(0), 200);
};
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "drop") {
    recProxy.reset();
    liveProxy.reset();
    emit({ t: "dropped" });
  } else if (line.trim() === "exit") {
    finish();
  }
}).on("close", finish);
