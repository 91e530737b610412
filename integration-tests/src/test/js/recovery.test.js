// Recoverable streams with real clients against the running integration-tests application (started by
// RecoveryClientsTest, which passes its address in CABLE_BASE): Server-Sent Events resumed by a browser's
// EventSource with Last-Event-ID.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { BASE, RUN, TIMEOUT, post, until } from "./browser-support.js";

/** Reads Server-Sent Events from a fetch response; events() is the list parsed so far. */
function sseReader(response) {
  const events = [];
  let buffer = "";
  let closed = false;
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = { event: "message", data: [] };
          for (const line of block.split("\n")) {
            const colon = line.indexOf(":");
            if (colon <= 0) continue;
            const field = line.slice(0, colon);
            const value = line.slice(colon + 1).replace(/^ /, "");
            if (field === "data") event.data.push(value);
            else event[field] = value;
          }
          event.data = event.data.join("\n");
          events.push(event);
        }
      }
    } catch (e) {
      // cancelled
    }
    closed = true;
  })();
  return { events: () => events, closed: () => closed, cancel: () => reader.cancel() };
}

async function openStream(channel, lastEventId) {
  const headers = { Accept: "text/event-stream" };
  if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
  const response = await fetch(`${BASE}/events/${channel}`, { headers });
  assert.equal(response.status, 200);
  return sseReader(response);
}

test("SSE: a fresh stream starts with its position; Last-Event-ID at the newest replays nothing, one before replays one", async () => {
  const channel = `sse-newest-${RUN}`;
  const first = await openStream(channel);
  const subscribed = await until(() => first.events().find((e) => e.event === "cable-subscribed"), "cable-subscribed");
  assert.equal(subscribed.id, "0", "a channel without messages is at 0");
  await post(`/broadcast/${channel}`, "one");
  await post(`/broadcast/${channel}`, "two");
  await until(() => first.events().filter((e) => e.event === "message").length === 2, "two messages");
  const messages = first.events().filter((e) => e.event === "message");
  assert.deepEqual(messages.map((e) => e.data), ["one", "two"]);
  const [epoch, offset] = messages[1].id.split(":");
  assert.equal(offset, "2");
  assert.equal(messages[0].id, `${epoch}:1`);
  first.cancel();

  const atNewest = await openStream(channel, `${epoch}:2`);
  const oneBefore = await openStream(channel, `${epoch}:1`);
  const fromZero = await openStream(channel, "0");
  await until(() => oneBefore.events().length >= 1 && fromZero.events().length >= 2, "replays");
  await post(`/broadcast/${channel}`, "three");
  await until(() => atNewest.events().length >= 1 && oneBefore.events().length >= 2 && fromZero.events().length >= 3,
    "live after replay");
  assert.deepEqual(atNewest.events().map((e) => [e.event, e.data, e.id]), [["message", "three", `${epoch}:3`]]);
  assert.deepEqual(oneBefore.events().map((e) => [e.data, e.id]), [["two", `${epoch}:2`], ["three", `${epoch}:3`]]);
  assert.deepEqual(fromZero.events().map((e) => e.data), ["one", "two", "three"]);
  for (const stream of [atNewest, oneBefore, fromZero]) stream.cancel();
});

test("SSE: history that is not all there gives one cable-history-lost event with the resume id, nothing replayed, then live", async () => {
  const channel = `sse-lost-${RUN}`;
  await post(`/broadcast/${channel}`, "old");
  const cases = [["wrongepoch:1", "epoch_changed"], ["notanid", "invalid_id"]];
  const first = await openStream(channel);
  const subscribed = await until(() => first.events().find((e) => e.event === "cable-subscribed"), "subscribed");
  first.cancel();
  const [epoch] = subscribed.id.split(":");
  cases.push([`${epoch}:5`, "offset_beyond_newest"]);
  const streams = [];
  for (const [id] of cases) streams.push(await openStream(channel, id));
  await until(() => streams.every((s) => s.events().length >= 1), "history-lost events");
  await post(`/broadcast/${channel}`, "live");
  await until(() => streams.every((s) => s.events().length >= 2), "live after history-lost");
  for (const [i, stream] of streams.entries()) {
    const [lost, live] = stream.events();
    assert.equal(lost.event, "cable-history-lost", cases[i][0]);
    assert.equal(lost.data, cases[i][1], cases[i][0]);
    // Every reason carries the channel's position where live delivery started (one message, "old", was there), so
    // an EventSource that reconnects before any live message resends an id the server accepts.
    assert.equal(lost.id, `${epoch}:1`, `id of ${cases[i][1]}`);
    assert.equal(live.data, "live");
    assert.equal(live.id, `${epoch}:2`);
    assert.equal(stream.events().length, 2, "nothing replayed");
    stream.cancel();
    // Resuming from the history-lost id replays exactly what came after it: nothing lost, nothing twice.
    const resumed = await openStream(channel, lost.id);
    await until(() => resumed.events().length >= 1, `resumed after ${cases[i][1]}`);
    assert.deepEqual(resumed.events().map((e) => [e.event, e.data, e.id]), [["message", "live", `${epoch}:2`]]);
    resumed.cancel();
  }
});

test("SSE: EventSource in headless Chromium resumes exactly after every drop while broadcasts continue", async () => {
  const channel = `sse-browser-${RUN}`;
  const profile = mkdtempSync(join(tmpdir(), "cable-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = browser.pages()[0] || await browser.newPage();
    await page.goto(`${BASE}/blank.html`);
    // Every response ends after 7 events; EventSource reconnects on its own with Last-Event-ID.
    await page.evaluate((url) => {
      window.received = [];
      window.lost = [];
      window.opens = 0;
      const source = new EventSource(url);
      source.onopen = () => window.opens++;
      source.onmessage = (e) => window.received.push([e.lastEventId, e.data]);
      source.addEventListener("cable-subscribed", (e) => window.subscribed = e.lastEventId);
      source.addEventListener("cable-history-lost", (e) => window.lost.push(e.data));
    }, `/events/${channel}?drop-after=7`);
    await until(() => page.evaluate(() => window.subscribed), "cable-subscribed in the browser");
    const total = 60;
    for (let seq = 1; seq <= total; seq++) {
      await post(`/broadcast/${channel}`, String(seq));
      await new Promise((wake) => setTimeout(wake, 40));
    }
    await until(async () => (await page.evaluate(() => window.received.length)) >= total, `${total} messages`);
    const { received, lost, opens } = await page.evaluate(() => ({
      received: window.received, lost: window.lost, opens: window.opens,
    }));
    assert.deepEqual(received.map(([, data]) => Number(data)), Array.from({ length: total }, (_, i) => i + 1),
      "every message once, in order");
    const epoch = received[0][0].split(":")[0];
    received.forEach(([id], i) => assert.equal(id, `${epoch}:${i + 1}`));
    assert.deepEqual(lost, []);
    assert.ok(opens >= 8, `the stream was dropped and resumed (${opens} connections)`);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
