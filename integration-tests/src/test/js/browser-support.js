// Shared by the browser suites of recoverable streams (ext-browser, turbo-recovery, llm-demo): the application's
// address, REST helpers, a TCP proxy that can cut a browser's connection, and a headless Chromium with a fresh
// profile that gets its JavaScript modules from node_modules (never from the network).
import assert from "node:assert/strict";
import net from "node:net";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { track } from "./switching-proxy.js";
import { BASE, RUN } from "./node-env.js";

export const APP_PORT = Number(new URL(BASE).port);
export { BASE, RUN };
export const TIMEOUT = 120_000;
const here = dirname(fileURLToPath(import.meta.url));

export async function post(path, body = "") {
  const response = await fetch(BASE + path, { method: "POST", headers: { "Content-Type": "text/plain" }, body });
  const text = await response.text();
  assert.ok(response.status < 300, `POST ${path}: ${response.status} ${text}`);
  return text;
}

/** Polls condition (which may be async) until it returns a truthy value, or fails after TIMEOUT. */
export async function until(condition, what) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

/**
 * A TCP proxy to the application. The browser loads its page through it, so the page's WebSocket goes through it too
 * (and is same-origin for the cable's origin check).
 * - blackhole(): the current connections stay open but nothing is forwarded any more (a dead network path: the client
 *   only notices by missing pings);
 * - reset(): the current connections are reset (TCP RST on both sides);
 * - down() / up(): while down, new connections are reset as soon as they are accepted (the server is unreachable);
 *   refused() counts them.
 */
export async function tcpProxy() {
  const connections = new Set();
  let refusing = false;
  let refused = 0;
  const server = net.createServer((client) => {
    if (refusing) {
      refused++;
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(APP_PORT, "127.0.0.1");
    const connection = { client, upstream, blackholed: false };
    client.on("data", (data) => { if (!connection.blackholed) upstream.write(data); });
    upstream.on("data", (data) => { if (!connection.blackholed) client.write(data); });
    track(connections, connection);
  });
  await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
  const port = server.address().port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    refused: () => refused,
    blackhole() { for (const connection of connections) connection.blackholed = true; },
    reset() {
      for (const connection of connections) {
        connection.client.resetAndDestroy();
        connection.upstream.resetAndDestroy();
      }
    },
    down() { refusing = true; },
    up() { refusing = false; },
    close() {
      for (const connection of connections) { connection.client.destroy(); connection.upstream.destroy(); }
      server.close();
    },
  };
}

/** The import map of the test pages: bare specifiers to the npm packages, served by the route below. */
export const IMPORT_MAP = `<script type="importmap">{"imports": {
  "@anycable/web": "/js/anycable-web/index.js",
  "@anycable/core": "/js/anycable-core/index.js",
  "nanoevents": "/js/nanoevents/index.js",
  "@anycable/turbo-stream": "/js/anycable-turbo-stream/index.js",
  "@hotwired/turbo": "/js/hotwired-turbo/dist/turbo.es2017-esm.js"}}</script>`;

const PACKAGES = {
  "/js/anycable-web/": "node_modules/@anycable/web/",
  "/js/anycable-core/": "node_modules/@anycable/core/",
  "/js/nanoevents/": "node_modules/nanoevents/",
  "/js/anycable-turbo-stream/": "node_modules/@anycable/turbo-stream/",
  "/js/hotwired-turbo/": "node_modules/@hotwired/turbo/",
};

/**
 * Runs body(page, browser) in the system's headless Chromium with a fresh profile (never a downloaded browser).
 * With serveModules, requests for /js/** are answered from node_modules (the PACKAGES above); without it the page
 * gets what the application serves. Requests to any other host fail, so a page cannot depend on a CDN.
 */
export async function withBrowser(body, { serveModules = true } = {}) {
  const profile = mkdtempSync(join(tmpdir(), "cable-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const offsite = [];
  try {
    const page = browser.pages()[0] || await browser.newPage();
    page.on("console", (message) => { if (message.type() === "error") console.log("[page]", message.text()); });
    page.on("pageerror", (error) => console.log("[page error]", error.message));
    await page.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
        offsite.push(url.href);
        return route.abort();
      }
      const prefix = serveModules && Object.keys(PACKAGES).find((p) => url.pathname.startsWith(p));
      if (!prefix) return route.continue();
      const file = join(here, PACKAGES[prefix] + url.pathname.slice(prefix.length));
      return route.fulfill({ status: 200, contentType: "text/javascript", body: readFileSync(file) });
    });
    await body(page, browser);
    assert.deepEqual(offsite, [], "the page requested nothing from another host");
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Opens a real page of the application through the given origin (Chromium's local network access checks block
 * WebSockets from a document the test fabricated), then writes the test's markup into it.
 */
export async function servePage(page, origin, html) {
  await page.goto(`${origin}/blank.html`);
  await page.setContent(html);
}
