// Token expiry with the real client in Node (started by TokenExpiryTest, which passes the application's address in
// CABLE_BASE). The test application reads <user>.<expiry in epoch seconds> as its bearer token, from ?token= or from
// an anycable-token.<token> sub-protocol (TestTokenAuthentication); when it expires the cable says
// {"type":"disconnect","reason":"token_expired","reconnect":false}, and @anycable/core's tokenRefresher fetches a fresh
// one and reconnects.
import { test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { inbox } from "./inbox.js";
import { BASE, WS_BASE, RUN } from "./node-env.js";

const TIMEOUT = 90_000;

const inSeconds = (seconds) => Math.floor(Date.now() / 1000) + seconds;

// The close with token_expired, one call of the refresher, the reconnection, and a broadcast spoken after it that
// names the user: the refreshed token identified the new connection.
async function expiresThenReconnectsRefreshed(events, channel, refreshed, user) {
  const closed = await events.next((e) => e.type === "closed", "the close at the token's expiry");
  assert.equal(closed.reason, "token_expired");
  await events.next((e) => e.type === "connected", "the reconnection with the refreshed token");
  assert.equal(refreshed.length, 1);
  await channel.ensureSubscribed();
  channel.perform("speak", { text: "after refresh" });
  const heard = await events.next((e) => e.type === "received" && e.message.text === "after refresh", "a broadcast");
  assert.equal(heard.message.user, user, "the refreshed token identified the connection");
}

test("@anycable/core: token_expired, then the tokenRefresher reconnects with a fresh token", async () => {
  const { createCable } = await import("@anycable/core");
  const user = `token${RUN}`;
  const refreshed = [];
  const cable = createCable(`${WS_BASE}/cable?token=${user}.${inSeconds(4)}`, {
    websocketImplementation: WebSocket,
    protocol: "actioncable-v1-ext-json",
    logLevel: "warn",
    tokenRefresher: async (transport) => {
      refreshed.push(Date.now());
      transport.setURL(`${WS_BASE}/cable?token=${user}.${inSeconds(3600)}`);
    },
  });
  const events = inbox(TIMEOUT);
  cable.on("connect", (event) => events.push({ type: "connected", reconnect: !!(event && event.reconnect) }));
  cable.on("close", (event) => events.push({ type: "closed", reason: event && event.reason }));
  const channel = cable.subscribeTo("ChatChannel", { room: `tokens-${RUN}` });
  channel.on("message", (message) => events.push({ type: "received", message }));
  try {
    await channel.ensureSubscribed();
    await expiresThenReconnectsRefreshed(events, channel, refreshed, user);
  } finally {
    cable.disconnect();
  }
});

// websocketAuthStrategy 'sub-protocol': the token travels as a second sub-protocol, anycable-token.<token> (no token in
// the URL, where access logs keep it), and the refresher hands the transport a fresh one with setToken.
test("@anycable/core over the sub-protocol: token_expired, then setToken's fresh token reconnects", async () => {
  const { createCable } = await import("@anycable/core");
  const user = `subtoken${RUN}`;
  const refreshed = [];
  const cable = createCable(`${WS_BASE}/cable`, {
    websocketImplementation: WebSocket,
    protocol: "actioncable-v1-ext-json",
    websocketAuthStrategy: "sub-protocol",
    auth: { token: `${user}.${inSeconds(8)}` },
    logLevel: "warn",
    tokenRefresher: async (transport) => {
      refreshed.push(Date.now());
      transport.setToken(`${user}.${inSeconds(3600)}`);
    },
  });
  const events = inbox(TIMEOUT);
  cable.on("close", (event) => events.push({ type: "closed", reason: event && event.reason }));
  cable.on("connect", () => events.push({ type: "connected" }));
  const channel = cable.subscribeTo("ChatChannel", { room: `subtokens-${RUN}` });
  channel.on("message", (message) => events.push({ type: "received", message }));
  try {
    await channel.ensureSubscribed();
    await events.next((e) => e.type === "connected", "the first connection");
    await expiresThenReconnectsRefreshed(events, channel, refreshed, user);
  } finally {
    cable.disconnect();
  }
});
