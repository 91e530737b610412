// quarkus.cable.sse.max-stream-duration with a real EventSource (started by SseStreamDurationTest, whose profile ends
// every SSE stream within 1 s, and which passes the application's address in CABLE_BASE): Chromium reconnects after
// each end by itself, with Last-Event-ID, and receives every broadcast once, in order, while they keep coming.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, RUN, TIMEOUT, post, until, withBrowser } from "./browser-support.js";

test("SSE: EventSource in headless Chromium resumes exactly after every end of its stream", async () => {
  const channel = `sse-duration-browser-${RUN}`;
  await withBrowser(async (page) => {
    await page.goto(`${BASE}/blank.html`);
    await page.evaluate((url) => {
      window.received = [];
      window.lost = [];
      window.subscribed = [];
      window.opens = 0;
      const source = new EventSource(url);
      source.onopen = () => window.opens++;
      source.onmessage = (e) => window.received.push([e.lastEventId, e.data]);
      source.addEventListener("cable-subscribed", (e) => window.subscribed.push(e.lastEventId));
      source.addEventListener("cable-history-lost", (e) => window.lost.push(e.data));
    }, `/events/${channel}`);
    await until(() => page.evaluate(() => window.subscribed.length), "cable-subscribed in the browser");
    // Broadcasts keep coming (each committed before the next) until the server ended the stream three times and
    // Chromium came back each time (it waits its reconnection time, 3 s, first).
    const deadline = Date.now() + TIMEOUT;
    let total = 0;
    while (total < 30 || (await page.evaluate(() => window.opens)) < 4) {
      assert.ok(Date.now() < deadline, "three ends and reconnects in time");
      await post(`/broadcast/${channel}`, String(++total));
      await new Promise((wake) => setTimeout(wake, 50));
    }
    await until(async () => (await page.evaluate(() => window.received.length)) >= total, `${total} messages`);
    const { received, lost, subscribed, opens } = await page.evaluate(() => ({
      received: window.received, lost: window.lost, subscribed: window.subscribed, opens: window.opens,
    }));
    assert.deepEqual(received.map(([, data]) => Number(data)), Array.from({ length: total }, (_, i) => i + 1),
      "every message once, in order");
    const epoch = received[0][0].split(":")[0];
    received.forEach(([id], i) => assert.equal(id, `${epoch}:${i + 1}`));
    assert.deepEqual(lost, []);
    assert.equal(subscribed.length, 1, "every reconnect resumed (Last-Event-ID), none started afresh");
    assert.ok(opens >= 4, `the stream was ended and resumed (${opens} connections)`);
  }, { serveModules: false });
});
