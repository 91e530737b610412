// The demo's to-do page (todos.html) in two headless Chromium tabs against the running integration-tests
// application (started by TodoPageTest, which passes its address in CABLE_BASE): a change made in one tab is saved
// and broadcast in one transaction, and shows in both; a change whose transaction rolls back shows in neither.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { BASE } from "./node-env.js";

const TIMEOUT = 90_000;

test("every open to-do tab shows each committed change, and no rolled-back one", async () => {
  const profile = mkdtempSync(join(tmpdir(), "cable-todos-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const first = browser.pages()[0] || await browser.newPage();
    const second = await browser.newPage();
    for (const page of [first, second]) {
      page.on("console", (message) => { if (message.type() === "error") console.log("[page]", message.text()); });
      await page.goto(`${BASE}/todos.html`);
      await page.locator("#status", { hasText: /^connected$/ }).waitFor({ timeout: TIMEOUT });
    }
    const unique = `buy milk ${Date.now()}`;

    // Added in the first tab: both tabs show it.
    await first.fill("#title", unique);
    await first.click("#add button");
    for (const page of [first, second]) {
      await page.locator("li", { hasText: unique }).waitFor({ timeout: TIMEOUT });
    }

    // A change whose transaction rolls back (the request fails after broadcasting) reaches no tab; the change made
    // after it does, so by then the rolled-back one would have arrived too.
    const failed = await fetch(`${BASE}/todos?failAfterBroadcast=true`, {
      method: "POST", headers: { "Content-Type": "text/plain" }, body: `${unique} rolled back`,
    });
    assert.equal(failed.status, 500);

    // Ticked in the second tab: the first tab shows it done.
    await second.locator("li", { hasText: unique }).locator("input[type=checkbox]").check();
    await first.locator("li.done", { hasText: unique }).waitFor({ timeout: TIMEOUT });
    for (const page of [first, second]) {
      assert.equal(await page.locator("li", { hasText: `${unique} rolled back` }).count(), 0);
    }

    // Removed in the first tab: gone from both.
    await first.locator("li", { hasText: unique }).locator("button").click();
    for (const page of [first, second]) {
      await page.locator("li", { hasText: unique }).waitFor({ state: "detached", timeout: TIMEOUT });
    }
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
