// The Dev UI page of the cable in headless Chromium (CableDevUiBrowserTest starts the application in development
// mode and passes its address in CABLE_BASE). One tab is an Action Cable client: a raw WebSocket speaking
// actioncable-v1-json, subscribed to DevUiRoomChannel, which puts it in the presence set of devui:room as "ann".
// The other tab is the Dev UI: it must list that connection and that presence member, and a test broadcast sent
// from its own form must show in the recent messages and reach the client tab.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const BASE = process.env.CABLE_BASE;
const TIMEOUT = 60_000;
// The first request for the Dev UI makes a development-mode application build the Dev UI's pages; on a loaded 2-core
// machine that took more than 20 s.
const NAVIGATION_TIMEOUT = 180_000;

test("the Dev UI shows a connection, a presence member and a broadcast", { timeout: 2 * NAVIGATION_TIMEOUT + 4 * TIMEOUT }, async () => {
  assert.ok(BASE, "CABLE_BASE is set");
  // A fresh profile each run: nothing carried over from an earlier run (storage, service workers).
  const profile = mkdtempSync(join(tmpdir(), "cable-devui-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    // Only the application is reachable: anything the Dev UI asks of another host is refused (and reported), so the
    // test never depends on the network.
    await browser.route("**/*", (route) => {
      const host = new URL(route.request().url()).hostname;
      if (host === "127.0.0.1" || host === "localhost") return route.continue();
      console.log("[offsite refused]", route.request().url());
      return route.abort();
    });

    // Playwright's default of 30 s is too short for a development-mode application's first requests on a busy machine.
    browser.setDefaultTimeout(TIMEOUT);
    browser.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT);

    // The client tab: a small static page of the application (same origin, which the cable's origin check wants),
    // then the socket.
    const client = browser.pages()[0] || await browser.newPage();
    await client.goto(`${BASE}/client.html`);
    await client.evaluate(() => new Promise((subscribed, failed) => {
      const identifier = JSON.stringify({ channel: "DevUiRoomChannel" });
      const socket = new WebSocket(location.origin.replace(/^http/, "ws") + "/cable", "actioncable-v1-json");
      window.received = [];
      socket.onmessage = (event) => {
        const frame = JSON.parse(event.data);
        if (frame.type === "welcome") socket.send(JSON.stringify({ command: "subscribe", identifier }));
        if (frame.type === "confirm_subscription") subscribed();
        if (frame.type === "reject_subscription") failed(new Error("subscription rejected"));
        if (frame.message !== undefined) window.received.push(frame.message);
      };
      socket.onclose = (event) => failed(new Error("socket closed: " + event.code));
      window.cableSocket = socket;
    }));

    // The Dev UI tab: the cable's page.
    const devUi = await browser.newPage();
    devUi.on("pageerror", (error) => console.log("[dev ui page error]", error.message));
    // Not waiting for "load": the Dev UI keeps loading modules; the cable's element below is what counts.
    await devUi.goto(`${BASE}/q/dev-ui/quarkus-cable-core/cable`, { waitUntil: "domcontentloaded" });
    const dashboard = devUi.locator("qwc-cable-dashboard");
    await dashboard.waitFor({ timeout: NAVIGATION_TIMEOUT });

    // The connection: its subscription identifier and its presence set, in one row of the connections grid (the page
    // refreshes every 2 s; the locators wait for it).
    const connections = dashboard.locator("#connections vaadin-grid-cell-content");
    await connections.filter({ hasText: '{"channel":"DevUiRoomChannel"}' }).first().waitFor({ timeout: TIMEOUT });
    await connections.filter({ hasText: /^devui:room$/ }).first().waitFor({ timeout: TIMEOUT });
    await connections.filter({ hasText: /^actioncable-v1-json$/ }).first().waitFor({ timeout: TIMEOUT });

    // The presence member the channel joined for it, with its info, read from the database.
    const presence = dashboard.locator("#presence vaadin-grid-cell-content");
    await presence.filter({ hasText: /^ann$/ }).first().waitFor({ timeout: TIMEOUT });
    await presence.filter({ hasText: '{"name":"Ann"}' }).first().waitFor({ timeout: TIMEOUT });

    // A broadcast from the Dev UI's own form, to the channel the client streams.
    const payload = `hello from the Dev UI browser test ${Date.now()}`;
    await dashboard.locator("vaadin-text-field").locator("input").fill("devui:room");
    await dashboard.locator("vaadin-text-area").locator("textarea").fill(payload);
    await dashboard.locator("vaadin-button", { hasText: "Broadcast" }).click();
    await dashboard.locator("#recent-messages vaadin-grid-cell-content").filter({ hasText: payload }).first()
      .waitFor({ timeout: TIMEOUT });

    // It went through the cable to the client tab too.
    await client.waitForFunction((expected) => window.received.includes(expected), payload, { timeout: TIMEOUT });
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
