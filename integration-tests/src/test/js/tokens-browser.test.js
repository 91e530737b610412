// Token expiry with @anycable/web in headless Chromium (started by TokenExpiryTest, which passes the application's
// address in CABLE_BASE). The page connects with a token of the test application (?token=<user>.<expiry in epoch
// seconds>, TestTokenAuthentication) that expires 8 s later (time to connect and subscribe on a loaded machine); the
// cable then says {"type":"disconnect","reason":"token_expired","reconnect":false}, and the tokenRefresher,
// @anycable/web's fetchTokenFromHTML(), fetches the test application's /token-page (TokenPageResource) for a fresh
// token in its cable-token meta tag, sets it on the transport and reconnects; the channel is subscribed again and the
// user's messages go on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, RUN, IMPORT_MAP, until, withBrowser, servePage } from "./browser-support.js";

function tokenPage(user, room) {
  return `<!doctype html><html><head>${IMPORT_MAP}</head><body><script type="module">
    import { createCable, fetchTokenFromHTML } from "@anycable/web";
    window.events = [];
    window.refreshes = 0;
    const fetchToken = fetchTokenFromHTML({ url: "/token-page?user=${user}" });
    window.firstToken = "${user}." + (Math.floor(Date.now() / 1000) + 8);
    const cable = createCable("ws://" + location.host + "/cable?token=" + window.firstToken, {
      protocol: "actioncable-v1-ext-json", logLevel: "warn",
      tokenRefresher: async (transport) => {
        window.refreshes++;
        window.events.push({ type: "refresh" });
        await fetchToken(transport);
      },
    });
    cable.on("connect", () => window.events.push({ type: "connect" }));
    cable.on("close", (event) => window.events.push({ type: "close", reason: event && event.reason }));
    const channel = cable.subscribeTo("ChatChannel", { room: "${room}" });
    channel.on("connect", () => window.events.push({ type: "subscribed" }));
    channel.on("message", (message) => window.events.push({ type: "message", message }));
    window.cable = cable;
    window.channel = channel;
    await channel.ensureSubscribed();
    window.ready = true;
  </script></body></html>`;
}

const events = (page) => page.evaluate(() => window.events);
const types = async (page) => (await events(page)).map((e) => e.type);

test("@anycable/web in Chromium: token_expired, then fetchTokenFromHTML's fresh token reconnects", async () => {
  const user = `tokenweb${RUN}`;
  const room = `tokens-browser-${RUN}`;
  await withBrowser(async (page) => {
    await servePage(page, BASE, tokenPage(user, room));
    await until(() => page.evaluate(() => window.ready), "the first subscription");
    const firstToken = await page.evaluate(() => window.firstToken);
    assert.deepEqual(await types(page), ["connect", "subscribed"], "connected and subscribed before the expiry");

    const closed = await until(async () => (await events(page)).find((e) => e.type === "close"),
      "the close at the token's expiry");
    assert.equal(closed.reason, "token_expired");
    await until(async () => (await types(page)).filter((t) => t === "subscribed").length === 2,
      "the channel subscribed again after the refresh");
    await until(() => page.evaluate(() => window.channel.state === "connected"), "the channel's state connected");
    // The refresher's own close listener, registered by createCable, runs before the page's: "refresh", then "close".
    assert.deepEqual(await types(page), ["connect", "subscribed", "refresh", "close", "connect", "subscribed"]);
    assert.equal(await page.evaluate(() => window.refreshes), 1, "the refresher ran exactly once");

    // The transport now carries the token from the page, not the expired one: the same user, an hour to go.
    const url = new URL(await page.evaluate(() => window.cable.transport.url));
    const [tokenUser, expiry] = url.searchParams.get("token").split(".");
    assert.notEqual(url.searchParams.get("token"), firstToken);
    assert.equal(tokenUser, user);
    assert.ok(Number(expiry) > Date.now() / 1000 + 3000, `a fresh token, expiring at ${expiry}`);

    await page.evaluate(() => window.channel.perform("speak", { text: "after refresh" }));
    const heard = await until(async () => (await events(page))
      .find((e) => e.type === "message" && e.message.text === "after refresh"), "the message spoken after the refresh");
    assert.equal(heard.message.user, user);
    // Nothing else happened meanwhile: one close, one refresh.
    assert.deepEqual(await types(page),
      ["connect", "subscribed", "refresh", "close", "connect", "subscribed", "message"]);
    await page.evaluate(() => window.cable.disconnect());
  });
});
