// Real JavaScript clients against the running integration-tests application (started by ActionCableClientsTest,
// which passes its address in CABLE_BASE). Each client subscribes, receives broadcasts made over REST, performs an
// action, and reconnects after the server closes its connection.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { inbox } from "./inbox.js";
import { chromium } from "playwright-core";
import { BASE, WS_BASE } from "./node-env.js";

const TIMEOUT = 90_000;
const here = dirname(fileURLToPath(import.meta.url));

async function post(path, body = "") {
  const response = await fetch(BASE + path, {
    method: "POST",
    headers: { "Content-Type": "text/plain" },
    body,
  });
  assert.ok(response.status < 300, `POST ${path}: ${response.status} ${await response.text()}`);
}

test("@rails/actioncable in Node with ws", async () => {
  const ActionCable = await import("@rails/actioncable");
  ActionCable.adapters.WebSocket = WebSocket;
  const consumer = ActionCable.createConsumer(`${WS_BASE}/cable?user=node-rails`);
  const events = inbox(TIMEOUT);
  const subscription = consumer.subscriptions.create(
    { channel: "ChatChannel", room: "node-rails" },
    {
      connected(details) { events.push({ type: "connected", reconnected: !!(details && details.reconnected) }); },
      disconnected(details) { events.push({ type: "disconnected", willAttemptReconnect: details.willAttemptReconnect }); },
      rejected() { events.push({ type: "rejected" }); },
      received(message) { events.push({ type: "received", message }); },
    },
  );
  try {
    await events.next((e) => e.type === "connected", "confirmation");
    await post("/broadcast/chat:node-rails", JSON.stringify({ text: "from rest" }));
    await events.next((e) => e.type === "received" && e.message.text === "from rest", "REST broadcast");
    subscription.perform("speak", { text: "from node" });
    const spoken = await events.next((e) => e.type === "received" && e.message.text === "from node", "speak");
    assert.equal(spoken.message.user, "node-rails");
    subscription.perform("echo", { text: "only me" });
    await events.next((e) => e.type === "received" && e.message.echo === "only me", "echo");

    await post("/cable-admin/disconnect?reconnect=true");
    const gone = await events.next((e) => e.type === "disconnected", "disconnect");
    assert.equal(gone.willAttemptReconnect, true);
    await events.next((e) => e.type === "connected" && e.reconnected, "reconnection");
    await post("/broadcast/chat:node-rails", JSON.stringify({ text: "after reconnect" }));
    await events.next((e) => e.type === "received" && e.message.text === "after reconnect", "broadcast after reconnect");
  } finally {
    consumer.disconnect();
  }
});

test("@anycable/core (the engine of @anycable/web) in Action Cable mode", async () => {
  const { createCable } = await import("@anycable/core");
  const cable = createCable(`${WS_BASE}/cable?user=node-anycable`, {
    websocketImplementation: WebSocket,
    protocol: "actioncable-v1-json",
    logLevel: "warn",
  });
  const events = inbox(TIMEOUT);
  const channel = cable.subscribeTo("ChatChannel", { room: "node-anycable" });
  channel.on("message", (message) => events.push({ type: "received", message }));
  cable.on("disconnect", (event) => events.push({ type: "disconnected", reason: event && event.reason }));
  cable.on("connect", (event) => events.push({ type: "connected", reconnect: !!(event && event.reconnect) }));
  try {
    await channel.ensureSubscribed();
    await post("/broadcast/chat:node-anycable", JSON.stringify({ text: "from rest" }));
    await events.next((e) => e.type === "received" && e.message.text === "from rest", "REST broadcast");
    await channel.perform("speak", { text: "from anycable" });
    const spoken = await events.next((e) => e.type === "received" && e.message.text === "from anycable", "speak");
    assert.equal(spoken.message.user, "node-anycable");

    await post("/cable-admin/disconnect?reconnect=true");
    await events.next((e) => e.type === "disconnected", "disconnect");
    await events.next((e) => e.type === "connected" && e.reconnect, "reconnection");
    await channel.ensureSubscribed();
    await post("/broadcast/chat:node-anycable", JSON.stringify({ text: "after reconnect" }));
    await events.next((e) => e.type === "received" && e.message.text === "after reconnect", "broadcast after reconnect");
  } finally {
    cable.disconnect();
  }
});

/** Files the test page imports, served by Playwright from node_modules (the network is not used). */
const MODULES = {
  "/js/actioncable.esm.js": "node_modules/@rails/actioncable/app/assets/javascripts/actioncable.esm.js",
  "/js/turbo.js": "node_modules/@hotwired/turbo-rails/app/assets/javascripts/turbo.js",
  "/js/anycable-web/index.js": "node_modules/@anycable/web/index.js",
};

async function withBrowser(body) {
  const profile = mkdtempSync(join(tmpdir(), "cable-chromium-"));
  // A fresh profile each time (Playwright passes it as --user-data-dir); the system Chromium, never a download.
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = browser.pages()[0] || await browser.newPage();
    page.on("console", (message) => { if (message.type() === "error") console.log("[page]", message.text()); });
    await page.route(`${BASE}/js/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      let file = MODULES[path];
      if (!file && path.startsWith("/js/anycable-core/")) file = "node_modules/@anycable/core/" + path.slice(18);
      if (!file && path.startsWith("/js/anycable-web/")) file = "node_modules/@anycable/web/" + path.slice(17);
      if (!file && path.startsWith("/js/nanoevents/")) file = "node_modules/nanoevents/" + path.slice(15);
      if (!file) return route.fulfill({ status: 404, body: "no " + path });
      return route.fulfill({ status: 200, contentType: "text/javascript", body: readFileSync(join(here, file)) });
    });
    await body(page);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Loads a real page of the application first (Chromium's local network access checks block WebSockets from a
 * document the test fabricated), then writes the test's markup into it.
 */
async function servePage(page, path, html) {
  await page.goto(`${BASE}/blank.html`);
  await page.setContent(html);
}

test("@rails/actioncable in headless Chromium", async () => {
  await withBrowser(async (page) => {
    await servePage(page, "/test-rails.html", `<!doctype html><html><body><ul id="log"></ul><script type="module">
      import { createConsumer } from "/js/actioncable.esm.js";
      const log = (text) => { const li = document.createElement("li"); li.textContent = text; document.getElementById("log").append(li); };
      const consumer = createConsumer("/cable?user=chromium");
      window.chat = consumer.subscriptions.create({ channel: "ChatChannel", room: "chromium-rails" }, {
        connected(d) { log(d && d.reconnected ? "reconnected" : "connected"); },
        disconnected() { log("disconnected"); },
        received(m) { log("received:" + (m.text || m.echo) + ":" + (m.user || "")); },
      });
    </script></body></html>`);
    const log = page.locator("#log");
    await log.getByText("connected", { exact: true }).waitFor({ timeout: TIMEOUT });
    await post("/broadcast/chat:chromium-rails", JSON.stringify({ text: "from rest" }));
    await log.getByText("received:from rest:").waitFor({ timeout: TIMEOUT });
    await page.evaluate(() => window.chat.perform("speak", { text: "typed" }));
    await log.getByText("received:typed:chromium").waitFor({ timeout: TIMEOUT });
    await post("/cable-admin/disconnect?reconnect=true");
    await log.getByText("disconnected", { exact: true }).waitFor({ timeout: TIMEOUT });
    await log.getByText("reconnected", { exact: true }).waitFor({ timeout: TIMEOUT });
    await post("/broadcast/chat:chromium-rails", JSON.stringify({ text: "again" }));
    await log.getByText("received:again:").waitFor({ timeout: TIMEOUT });
  });
});

test("@anycable/web in headless Chromium, Action Cable mode", async () => {
  await withBrowser(async (page) => {
    await servePage(page, "/test-anycable.html", `<!doctype html><html><head>
      <script type="importmap">{"imports": {"@anycable/web": "/js/anycable-web/index.js",
        "@anycable/core": "/js/anycable-core/index.js", "nanoevents": "/js/nanoevents/index.js"}}</script>
      </head><body><ul id="log"></ul><script type="module">
      import { createCable } from "@anycable/web";
      const log = (text) => { const li = document.createElement("li"); li.textContent = text; document.getElementById("log").append(li); };
      const cable = createCable("/cable?user=chromium-any", { protocol: "actioncable-v1-json", logLevel: "warn" });
      cable.on("connect", (e) => log(e && e.reconnect ? "reconnected" : "connected"));
      cable.on("disconnect", () => log("disconnected"));
      window.channel = cable.subscribeTo("ChatChannel", { room: "chromium-any" });
      window.channel.on("message", (m) => log("received:" + m.text + ":" + (m.user || "")));
      window.channel.ensureSubscribed().then(() => log("subscribed"));
    </script></body></html>`);
    const log = page.locator("#log");
    await log.getByText("subscribed", { exact: true }).waitFor({ timeout: TIMEOUT });
    await post("/broadcast/chat:chromium-any", JSON.stringify({ text: "from rest" }));
    await log.getByText("received:from rest:").waitFor({ timeout: TIMEOUT });
    await page.evaluate(() => window.channel.perform("speak", { text: "typed" }));
    await log.getByText("received:typed:chromium-any").waitFor({ timeout: TIMEOUT });
    await post("/cable-admin/disconnect?reconnect=true");
    await log.getByText("disconnected", { exact: true }).waitFor({ timeout: TIMEOUT });
    await log.getByText("reconnected", { exact: true }).waitFor({ timeout: TIMEOUT });
    await page.evaluate(() => window.channel.ensureSubscribed());
    await post("/broadcast/chat:chromium-any", JSON.stringify({ text: "again" }));
    await log.getByText("received:again:").waitFor({ timeout: TIMEOUT });
  });
});

test("Turbo <turbo-cable-stream-source> in headless Chromium updates the DOM", async () => {
  const source = await (await fetch(`${BASE}/cable-admin/turbo/chromium-turbo/source`)).text();
  assert.match(source, /^<turbo-cable-stream-source channel="Turbo::StreamsChannel" signed-stream-name="[^"]+--[0-9a-f]{64}">/);
  await withBrowser(async (page) => {
    await servePage(page, "/test-turbo.html", `<!doctype html><html><head>
      <script type="module" src="/js/turbo.js"></script></head>
      <body><div id="messages"></div>${source}</body></html>`);
    await page.locator("turbo-cable-stream-source[connected]").waitFor({ state: "attached", timeout: TIMEOUT });
    await post("/cable-admin/turbo/chromium-turbo/append/messages", "first <b>escaped</b>");
    await page.locator("#messages p", { hasText: "first <b>escaped</b>" }).waitFor({ timeout: TIMEOUT });
    await post("/cable-admin/disconnect?reconnect=true");
    await page.locator("turbo-cable-stream-source:not([connected])").waitFor({ state: "attached", timeout: TIMEOUT });
    await page.locator("turbo-cable-stream-source[connected]").waitFor({ state: "attached", timeout: TIMEOUT });
    await post("/cable-admin/turbo/chromium-turbo/append/messages", "second");
    await page.locator("#messages p", { hasText: "second" }).waitFor({ timeout: TIMEOUT });
    assert.equal(await page.locator("#messages p").count(), 2);
  });
});

/** A page streaming {@code stream} through Turbo's own element, recording stream renders and Drive visits. */
async function turboPage(page, stream, body) {
  const source = await (await fetch(`${BASE}/cable-admin/turbo/${stream}/source`)).text();
  await servePage(page, `/test-${stream}.html`, `<!doctype html><html><head>
    <script type="module" src="/js/turbo.js"></script></head>
    <body>${body}${source}<script>
      window.visits = [];
      window.rendered = [];
      addEventListener("turbo:visit", (e) => window.visits.push(e.detail.url));
      addEventListener("turbo:before-stream-render", (e) => window.rendered.push(
        e.target.getAttribute("action") + ":" + (e.target.getAttribute("request-id") || "")));
    </script></body></html>`);
  await page.locator("turbo-cable-stream-source[connected]").waitFor({ state: "attached", timeout: TIMEOUT });
}

test("Turbo 8 in headless Chromium: targets (CSS selector) and method=morph", async () => {
  await withBrowser(async (page) => {
    await turboPage(page, "chromium-turbo8",
      `<ul class="list" id="a"></ul><ul class="list" id="b"></ul><div id="card" data-n="1">one</div>
       <div id="plain">one</div>`);
    await page.evaluate(() => {
      window.card = document.getElementById("card");
      window.plain = document.getElementById("plain");
    });
    await post("/cable-admin/turbo/chromium-turbo8/stream?action=append&targets=.list", "<li>item</li>");
    await page.locator("#b li", { hasText: "item" }).waitFor({ timeout: TIMEOUT });
    assert.equal(await page.locator("ul.list li").count(), 2, "the selector matched both lists");

    await post("/cable-admin/turbo/chromium-turbo8/stream?action=replace&target=card&method=morph",
      `<div id="card" data-n="2">two</div>`);
    await page.locator("#card[data-n='2']", { hasText: "two" }).waitFor({ timeout: TIMEOUT });
    assert.equal(await page.evaluate(() => document.getElementById("card") === window.card), true,
      "morphing kept the element");

    await post("/cable-admin/turbo/chromium-turbo8/stream?action=replace&target=plain", `<div id="plain">two</div>`);
    await page.locator("#plain", { hasText: "two" }).waitFor({ timeout: TIMEOUT });
    assert.equal(await page.evaluate(() => document.getElementById("plain") === window.plain), false,
      "a plain replace swaps the element (so the morph check above can fail)");
  });
});

test("Turbo 8 in headless Chromium: refresh, ignored by the page whose request caused it", async () => {
  await withBrowser(async (page) => {
    await turboPage(page, "chromium-refresh", `<div id="log"></div>`);
    // The page's own request (Turbo.fetch sends X-Turbo-Request-Id and remembers it) triggers a refresh with its id.
    const requestId = await page.evaluate(async () => {
      const response = await window.Turbo.fetch("/cable-admin/turbo/chromium-refresh/refresh-mine", { method: "POST" });
      return response.text();
    });
    assert.match(requestId, /^[0-9a-f-]{36}$/);
    // Same stream, so it arrives after the refresh: once it is on the page, the refresh was rendered.
    await post("/cable-admin/turbo/chromium-refresh/append/log", "after own refresh");
    await page.locator("#log p", { hasText: "after own refresh" }).waitFor({ timeout: TIMEOUT });
    assert.deepEqual(await page.evaluate(() => window.rendered.filter((r) => r.startsWith("refresh"))),
      ["refresh:" + requestId]);
    assert.deepEqual(await page.evaluate(() => window.visits), [], "its own refresh did not reload the page");

    await post("/cable-admin/turbo/chromium-refresh/refresh?request-id=another-page");
    await page.waitForFunction(() => window.visits.length === 1, null, { timeout: TIMEOUT });
    // The refresh re-rendered the page from the server (blank.html): the log the test wrote is gone.
    await page.locator("#log").waitFor({ state: "detached", timeout: TIMEOUT });
  });
});

test("Turbo 8 refreshes broadcast later are debounced on the server", async () => {
  const ActionCable = await import("@rails/actioncable");
  ActionCable.adapters.WebSocket = WebSocket;
  const signed = await (await fetch(`${BASE}/cable-admin/turbo/node-refresh/signed`)).text();
  const consumer = ActionCable.createConsumer(`${WS_BASE}/cable?user=node-turbo`);
  const events = inbox(TIMEOUT);
  const received = [];
  consumer.subscriptions.create({ channel: "Turbo::StreamsChannel", signed_stream_name: signed }, {
    connected() { events.push({ type: "connected" }); },
    received(message) { received.push(message); events.push({ type: "received", message }); },
  });
  try {
    await events.next((e) => e.type === "connected", "confirmation");
    await post("/cable-admin/turbo/node-refresh/refresh-later?request-id=bulk&times=10");
    await post("/cable-admin/turbo/node-refresh/append/log", "marker");
    await events.next((e) => e.type === "received" && e.message.includes("marker"), "marker");
    const refreshes = received.filter((m) => m.includes('action="refresh"'));
    assert.ok(refreshes.length >= 1 && refreshes.length < 10, `10 refreshes coalesced, got ${refreshes.length}`);
    assert.equal(refreshes[0], '<turbo-stream action="refresh" request-id="bulk"></turbo-stream>');
  } finally {
    consumer.disconnect();
  }
});
