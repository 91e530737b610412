// Turbo Streams with recovery: <turbo-cable-stream-source> elements driven by @anycable/turbo-stream over the
// extended protocol (actioncable-v1-ext-json), with the application's signed stream names, in headless Chromium
// through a TCP proxy that cuts the connection while broadcasts continue. @anycable/turbo-stream registers the same
// custom element as Turbo's own cable source (@hotwired/turbo-rails), so this page loads plain @hotwired/turbo.
// Started by TurboRecoveryClientsTest, which passes the application's address in CABLE_BASE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, RUN, IMPORT_MAP, post, until, tcpProxy, withBrowser, servePage } from "./browser-support.js";

function turboPage(stream, source) {
  return `<!doctype html><html><head>${IMPORT_MAP}</head><body><div id="messages"></div>${source}
    <script type="module">
    import "@hotwired/turbo";
    import { createCable } from "@anycable/web";
    import { backoffWithJitter } from "@anycable/core";
    import { start } from "@anycable/turbo-stream";
    window.wire = [];
    window.events = [];
    window.infos = [];
    let sockets = 0;
    class RecordingWebSocket extends WebSocket {
      constructor(url, protocols) {
        super(url, protocols);
        this.connection = ++sockets;
        this.addEventListener("message", (e) => window.wire.push({ connection: this.connection, frame: JSON.parse(e.data) }));
      }
    }
    const cable = createCable("ws://" + location.host + "/cable?user=chromium-turbo-${stream}", {
      protocol: "actioncable-v1-ext-json",
      websocketImplementation: RecordingWebSocket,
      logLevel: "warn",
      reconnectStrategy: backoffWithJitter(500, { maxInterval: 2000 }),
    });
    cable.on("connect", (e) => window.events.push({ type: "connect", reconnect: e.reconnect }));
    cable.on("disconnect", () => window.events.push({ type: "disconnect" }));
    start(cable);
    // Defining the element upgraded the source above: its channel exists now.
    document.querySelector("turbo-cable-stream-source").channel.on("info", (info) => window.infos.push(info.type));
  </script></body></html>`;
}

const texts = (page) => page.locator("#messages p").allTextContents();
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

async function append(stream, from, to, pause = 0) {
  for (let i = from; i <= to; i++) {
    await post(`/cable-admin/turbo/${stream}/append/messages`, `m${i}`);
    if (pause) await new Promise((wake) => setTimeout(wake, pause));
  }
}

test("@anycable/turbo-stream in Chromium: after network drops the DOM has every appended element exactly once, in order", async () => {
  const stream = `turbo-recovery-${RUN}`;
  const source = await (await fetch(`${BASE}/cable-admin/turbo/${stream}/source`)).text();
  assert.match(source, /^<turbo-cable-stream-source channel="Turbo::StreamsChannel" signed-stream-name="[^"]+--[0-9a-f]{64}">/);
  const proxy = await tcpProxy();
  try {
    await withBrowser(async (page) => {
      await servePage(page, proxy.base, turboPage(stream, source));
      await page.locator("turbo-cable-stream-source[connected]").waitFor({ state: "attached", timeout: 120_000 });
      await until(() => page.evaluate(() => window.infos.includes("history_received")), "the first confirm_history");
      await append(stream, 1, 20);
      await until(async () => (await texts(page)).length === 20, "20 elements");

      const drops = [[() => proxy.blackhole(), 21, 80, 120], [() => proxy.reset(), 121, 160, 200]];
      for (const [cut, firstMissed, lastMissed, last] of drops) {
        const disconnects = () => page.evaluate(() => window.events.filter((e) => e.type === "disconnect").length);
        const before = await disconnects();
        const refused = proxy.refused();
        proxy.down();
        cut();
        await append(stream, firstMissed, lastMissed);
        await until(async () => (await disconnects()) > before, "the disconnect");
        await until(() => proxy.refused() > refused, "a refused reconnection attempt");
        proxy.up();
        await append(stream, lastMissed + 1, last, 20);
        await until(async () => (await texts(page)).includes(`m${last}`), `element m${last}`);
      }

      assert.deepEqual(await texts(page), range(1, 200), "every appended element exactly once, in order");
      const { wire, infos, events } = await page.evaluate(() => ({ wire: window.wire, infos: window.infos, events: window.events }));
      assert.deepEqual(events.filter((e) => e.type === "connect").map((e) => e.reconnect), [false, true, true]);
      assert.deepEqual(infos.filter((i) => i.startsWith("history")), ["history_received", "history_received", "history_received"]);
      // On each new connection the missed elements came as a replay, before confirm_history.
      for (const [firstMissed, lastMissed] of [[21, 80], [121, 160]]) {
        const connection = wire.find((f) => f.frame.offset === firstMissed).connection;
        const frames = wire.filter((f) => f.connection === connection && f.frame.identifier).map((f) => f.frame);
        const answer = frames.findIndex((f) => f.type === "confirm_history");
        assert.equal(frames[0].type, "confirm_subscription");
        const replay = frames.slice(1, answer).map((f) => f.offset);
        assert.ok(replay.length >= lastMissed - firstMissed + 1 && replay[0] === firstMissed,
          `replayed from ${firstMissed} through at least ${lastMissed}: ${replay}`);
      }
    });
  } finally {
    proxy.close();
  }
});
