// The render-then-subscribe gap closed by the page cursor, in headless Chromium. Each page is rendered by the
// application with its notes and the channel's cursor read in the same transaction; it does not subscribe by itself
// (its subscription markup waits in a <template>), so the test commits notes between the render and the subscription,
// then subscribes, then commits more. Every note must show exactly once, in order: the rendered ones, the ones
// committed during the gap (replayed after the cursor) and the live ones; none of the rendered ones twice.
// Started by PageCursorTest, which passes the application's address in CABLE_BASE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, RUN, IMPORT_MAP, post, until, withBrowser, servePage } from "./browser-support.js";

const texts = (page) => page.locator("#notes p").allTextContents();
const range = (list, from, to) => Array.from({ length: to - from + 1 }, (_, i) => `${list}-${from + i}`);

async function add(list, kind, from, to) {
  for (let i = from; i <= to; i++) await post(`/cursor-notes/${list}?kind=${kind}`, `${list}-${i}`);
}

async function rendered(list, kind) {
  const response = await fetch(`${BASE}/cursor-notes/${list}/${kind}`);
  assert.equal(response.status, 200);
  return response.text();
}

function turboPage(state, protocol) {
  return `<!doctype html><html><head>${IMPORT_MAP}</head><body>${state}
    <script type="module">
    import "@hotwired/turbo";
    import { createCable } from "@anycable/web";
    import { start } from "@anycable/turbo-stream";
    window.infos = [];
    // Held back until the test says so: then the cable starts and the source tag (with its cursor) joins the page
    // and subscribes. (@anycable/web's history "since" is the cable's creation second: the test lets the gap age
    // past it, so that only the cursor can bring the gap.)
    window.subscribeNow = () => {
      const cable = createCable("ws://" + location.host + "/cable?user=chromium-cursor", { protocol: "${protocol}", logLevel: "warn" });
      start(cable);
      const template = document.getElementById("subscribe");
      document.body.appendChild(template.content.cloneNode(true));
      document.querySelector("turbo-cable-stream-source").channel.on("info", (info) => window.infos.push(info.type));
    };
    window.ready = true;
  </script></body></html>`;
}

function ssePage(state, list) {
  return `<!doctype html><html><head></head><body>${state}
    <script>
    window.subscribeNow = () => {
      const cursor = document.getElementById("subscribe").dataset.cursor;
      const source = new EventSource("/cursor-notes/${list}/events?cursor=" + encodeURIComponent(cursor));
      source.onmessage = (event) => {
        const p = document.createElement("p");
        p.textContent = event.data;
        document.getElementById("notes").appendChild(p);
      };
      window.source = source;
    };
    window.ready = true;
  </script></body></html>`;
}

for (const protocol of ["actioncable-v1-ext-json", "actioncable-v1-json"]) {
  test(`Turbo page (@anycable/turbo-stream, ${protocol}): broadcasts committed between render and subscription arrive exactly once`, async () => {
    const list = `turbo-${protocol.length}-${RUN}`;
    await withBrowser(async (page) => {
      await add(list, "turbo", 1, 5);
      const state = await rendered(list, "turbo");
      assert.match(state, /data-cable-cursor="[^"]+:5"/, "the cursor of the 5 rendered notes");
      await servePage(page, BASE, turboPage(state, protocol));
      await until(() => page.evaluate(() => window.ready === true), "the page's script");
      assert.deepEqual(await texts(page), range(list, 1, 5));
      await add(list, "turbo", 6, 10); // committed after the render, before the subscription
      // @anycable/web's first subscribe asks for history `since` the cable's creation second: let the gap be older
      // than that, so that only the cursor can bring it (a clock bound, not a synchronisation).
      const gapEnd = Date.now();
      await until(() => Date.now() > gapEnd + 1500, "the gap to age");
      await page.evaluate(() => window.subscribeNow());
      await page.locator("turbo-cable-stream-source[connected]").waitFor({ state: "attached", timeout: 120_000 });
      await until(async () => (await texts(page)).includes(`${list}-10`), "the notes of the gap");
      await add(list, "turbo", 11, 15);
      await until(async () => (await texts(page)).includes(`${list}-15`), "the live notes");
      if (protocol.includes("ext")) {
        await until(() => page.evaluate(() => window.infos.includes("history_received")), "confirm_history");
      }
      assert.deepEqual(await texts(page), range(list, 1, 15), "every note exactly once, in order");
    });
  });
}

test("SSE page: broadcasts committed between render and subscription arrive exactly once", async () => {
  const list = `sse-${RUN}`;
  await withBrowser(async (page) => {
    await add(list, "sse", 1, 5);
    const state = await rendered(list, "sse");
    assert.match(state, /data-cursor="[^"]+:5"/, "the cursor of the 5 rendered notes");
    await servePage(page, BASE, ssePage(state, list));
    await until(() => page.evaluate(() => window.ready === true), "the page's script");
    await add(list, "sse", 6, 10);
    await page.evaluate(() => window.subscribeNow());
    await until(async () => (await texts(page)).includes(`${list}-10`), "the notes of the gap");
    await add(list, "sse", 11, 15);
    await until(async () => (await texts(page)).includes(`${list}-15`), "the live notes");
    assert.deepEqual(await texts(page), range(list, 1, 15), "every note exactly once, in order");
  });
});

test("a list without any note yet renders cursor 0, and the page gets every note from the first", async () => {
  const list = `empty-${RUN}`;
  const state = await rendered(list, "sse");
  assert.match(state, /data-cursor="0"/);
  await withBrowser(async (page) => {
    await servePage(page, BASE, ssePage(state, list));
    await until(() => page.evaluate(() => window.ready === true), "the page's script");
    await add(list, "sse", 1, 3);
    await page.evaluate(() => window.subscribeNow());
    await until(async () => (await texts(page)).includes(`${list}-3`), "the notes of the gap");
    await add(list, "sse", 4, 5);
    await until(async () => (await texts(page)).includes(`${list}-5`), "the live notes");
    assert.deepEqual(await texts(page), range(list, 1, 5), "every note exactly once, in order");
  });
});
