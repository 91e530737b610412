// The page cursor with real clients in Node (no browser): the same render-then-subscribe gap as page-cursor.test.js,
// for the Turbo stream source's subscription as @anycable/core (extended and plain protocol) and @rails/actioncable
// send it (the element's data-cable-cursor becomes the cable_cursor parameter), and for a raw SSE stream started with
// ?cursor=. Started by PageCursorTest, which passes the application's address in CABLE_BASE.
import { test } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { BASE, RUN, post, until } from "./browser-support.js";

const WS_BASE = BASE.replace(/^http/, "ws");
globalThis.document ??= { visibilityState: "visible", addEventListener() {}, removeEventListener() {} };
globalThis.addEventListener ??= () => {};
globalThis.removeEventListener ??= () => {};

const range = (list, from, to) => Array.from({ length: to - from + 1 }, (_, i) => `${list}-${from + i}`);
const appended = (html) => [...html.matchAll(/<p>([^<]*)<\/p>/g)].map((m) => m[1]);

async function add(list, kind, from, to) {
  for (let i = from; i <= to; i++) await post(`/cursor-notes/${list}?kind=${kind}`, `${list}-${i}`);
}

async function renderTurbo(list) {
  const html = await (await fetch(`${BASE}/cursor-notes/${list}/turbo`)).text();
  const signed = html.match(/signed-stream-name="([^"]+)"/)[1];
  const cursor = html.match(/data-cable-cursor="([^"]+)"/)[1];
  return { html, signed, cursor };
}

for (const protocol of ["actioncable-v1-ext-json", "actioncable-v1-json"]) {
  test(`@anycable/core (${protocol}) subscribing with the rendered cursor gets exactly the notes after the render`, async () => {
    const list = `node-${protocol.length}-${RUN}`;
    await add(list, "turbo", 1, 5);
    const page = await renderTurbo(list);
    assert.deepEqual(appended(page.html), range(list, 1, 5));
    assert.match(page.cursor, /:5$/);
    await add(list, "turbo", 6, 10); // the gap
    // @anycable/core's first subscribe asks for history `since` its creation second: let the gap be older than that,
    // so that only the cursor can bring it (a clock bound, not a synchronisation).
    const gapEnd = Date.now();
    await until(() => Date.now() > gapEnd + 1500, "the gap to age");
    const { createCable } = await import("@anycable/core");
    const cable = createCable(`${WS_BASE}/cable?user=node-cursor`, { websocketImplementation: WebSocket, protocol, logLevel: "warn" });
    const received = [];
    const channel = cable.subscribeTo("Turbo::StreamsChannel", { signed_stream_name: page.signed, cable_cursor: page.cursor });
    channel.on("message", (message) => received.push(...appended(message)));
    try {
      await channel.ensureSubscribed();
      await until(() => received.includes(`${list}-10`), "the notes of the gap");
      await add(list, "turbo", 11, 15);
      await until(() => received.includes(`${list}-15`), "the live notes");
      assert.deepEqual(received, range(list, 6, 15), "every note after the render exactly once, in order");
    } finally {
      cable.disconnect();
    }
  });
}

test("@rails/actioncable subscribing with the rendered cursor gets exactly the notes after the render", async () => {
  const list = `node-rails-${RUN}`;
  await add(list, "turbo", 1, 3);
  const page = await renderTurbo(list);
  await add(list, "turbo", 4, 6);
  const ActionCable = await import("@rails/actioncable");
  ActionCable.adapters.WebSocket = WebSocket;
  const consumer = ActionCable.createConsumer(`${WS_BASE}/cable?user=node-rails-cursor`);
  const received = [];
  let connected = false;
  consumer.subscriptions.create({ channel: "Turbo::StreamsChannel", signed_stream_name: page.signed, cable_cursor: page.cursor }, {
    connected() { connected = true; },
    received(message) { received.push(...appended(message)); },
  });
  try {
    await until(() => connected, "the confirmation");
    await until(() => received.includes(`${list}-6`), "the notes of the gap");
    await add(list, "turbo", 7, 8);
    await until(() => received.includes(`${list}-8`), "the live notes");
    assert.deepEqual(received, range(list, 4, 8), "every note after the render exactly once, in order");
  } finally {
    consumer.disconnect();
  }
});

test("an SSE stream started with ?cursor= gets exactly the notes after the render, also from cursor 0", async () => {
  for (const before of [3, 0]) {
    const list = `node-sse-${before}-${RUN}`;
    await add(list, "sse", 1, before);
    const html = await (await fetch(`${BASE}/cursor-notes/${list}/sse`)).text();
    const cursor = html.match(/data-cursor="([^"]+)"/)[1];
    assert.equal(cursor === "0", before === 0, `cursor ${cursor}`);
    await add(list, "sse", before + 1, before + 3); // the gap
    const controller = new AbortController();
    const response = await fetch(`${BASE}/cursor-notes/${list}/events?cursor=${encodeURIComponent(cursor)}`,
      { headers: { Accept: "text/event-stream" }, signal: controller.signal });
    const received = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of response.body) {
          buffer += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const named = /^event:/m.test(event);
            const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
            if (!named && data) received.push(data);
          }
        }
      } catch (e) {
        if (e.name !== "AbortError") throw e;
      }
    })();
    try {
      await until(() => received.includes(`${list}-${before + 3}`), "the notes of the gap");
      await add(list, "sse", before + 4, before + 5);
      await until(() => received.includes(`${list}-${before + 5}`), "the live notes");
      assert.deepEqual(received, range(list, before + 1, before + 5), "every note after the render exactly once, in order");
    } finally {
      controller.abort();
      await reading;
    }
  }
});
