// The browser client the extension serves (quarkus.cable.client.path, default /_cable/cable.js) in headless Chromium:
// pages of the application import it with no npm, no bundler and no import map, and get the extended protocol's
// features from it. Started by ShippedClientTest, which passes the application's address in CABLE_BASE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, RUN, post, until, tcpProxy, withBrowser, servePage } from "./browser-support.js";

/**
 * One user's page: a cable over the extended protocol, subscribed to ChatChannel's room, recording every message with
 * its meta. It retries every half second after a drop (the default backoff starts at seconds).
 */
function chatPage(user, room) {
  return `<!doctype html><html><body><script type="module">
    import { createCable } from "/_cable/cable.js";
    window.received = [];
    window.disconnects = 0;
    const cable = createCable("ws://" + location.host + "/cable?user=${user}", {
      protocol: "actioncable-v1-ext-json", logLevel: "warn", reconnectStrategy: () => 500,
    });
    cable.on("disconnect", () => window.disconnects++);
    const channel = cable.subscribeTo("ChatChannel", { room: "${room}" });
    channel.on("message", (message, meta) => window.received.push({ message, meta }));
    window.channel = channel;
    await channel.ensureSubscribed();
    window.ready = true;
  </script></body></html>`;
}

const received = (page) => page.evaluate(() => window.received);
const messages = async (page, test) => (await received(page)).filter((r) => test(r.message));

test("the served module in Chromium: broadcasts, actions, whispers, and recovery after a dropped connection", async () => {
  const room = `shipped-${RUN}`;
  const proxy = await tcpProxy();
  try {
    await withBrowser(async (ann, browser) => {
      const requested = [];
      ann.on("request", (request) => requested.push(new URL(request.url()).pathname));
      await servePage(ann, BASE, chatPage(`ann-${RUN}`, room));
      await until(() => ann.evaluate(() => window.ready), "ann's subscription");
      // bob's page comes through the proxy, so the test can cut his connection.
      const bob = await browser.newPage();
      await servePage(bob, proxy.base, chatPage(`bob-${RUN}`, room));
      await until(() => bob.evaluate(() => window.ready), "bob's subscription");
      assert.deepEqual(requested.filter((path) => path.endsWith(".js")), ["/_cable/cable.js"],
        "the page loads the one module the extension serves, nothing else");

      // A server broadcast reaches both, with its stream position: the extended protocol is what was negotiated.
      await post(`/broadcast/chat:${room}`, JSON.stringify({ seq: 1 }));
      for (const page of [ann, bob]) {
        await until(async () => (await messages(page, (m) => m.seq === 1)).length, "broadcast 1");
        const [first] = await messages(page, (m) => m.seq === 1);
        assert.equal(first.meta.stream, `chat:${room}`);
        assert.ok(Number.isInteger(first.meta.offset) && first.meta.epoch, `a stream position: ${JSON.stringify(first.meta)}`);
      }

      // An action: ann speaks, the channel broadcasts it to the room as her.
      await ann.evaluate(() => window.channel.perform("speak", { text: "hello" }));
      await until(async () => (await messages(bob, (m) => m.text === "hello")).length, "ann's speak, at bob's");
      assert.deepEqual((await messages(bob, (m) => m.text === "hello"))[0].message, { text: "hello", user: `ann-${RUN}` });

      // A whisper: bob hears it stamped with ann as its sender; ann does not hear her own.
      await ann.evaluate(() => window.channel.whisper({ event: "typing" }));
      await until(async () => (await messages(bob, (m) => m.event === "typing")).length, "ann's whisper, at bob's");
      assert.deepEqual((await messages(bob, (m) => m.event === "typing"))[0].message, { event: "typing", from: `ann-${RUN}` });

      // Recovery: bob's connection is reset and refused while two broadcasts are committed; once he is back, he has
      // both, once each, in order.
      proxy.down();
      proxy.reset();
      await until(() => bob.evaluate(() => window.disconnects), "bob's disconnect");
      await post(`/broadcast/chat:${room}`, JSON.stringify({ seq: 2 }));
      await post(`/broadcast/chat:${room}`, JSON.stringify({ seq: 3 }));
      proxy.up();
      await until(async () => (await messages(bob, (m) => m.seq === 3)).length, "broadcast 3 at bob's, after the drop");
      const seqs = (await messages(bob, (m) => m.seq !== undefined)).map((r) => r.message.seq);
      assert.deepEqual(seqs, [1, 2, 3]);
      assert.deepEqual((await messages(ann, (m) => m.seq !== undefined)).map((r) => r.message.seq), [1, 2, 3]);
    }, { serveModules: false });
  } finally {
    proxy.close();
  }
});
