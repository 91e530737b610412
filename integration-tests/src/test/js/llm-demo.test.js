// The recoverable-streams demo page (llm.html) in headless Chromium, as a visitor uses it: ask, drop the connection
// for three seconds while the answer streams, and find the answer complete and in order. The page gets its
// JavaScript from the application (no route to node_modules, no other host). Started by LlmDemoPageTest, which
// passes the application's address in CABLE_BASE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, TIMEOUT, until, withBrowser } from "./browser-support.js";

test("demo: a streamed answer is complete and in order after the page drops its connection", async () => {
  await withBrowser(async (page) => {
    await page.goto(`${BASE}/llm.html`);
    await page.locator("#status", { hasText: "connected" }).waitFor({ timeout: TIMEOUT });
    await page.click("#ask");
    await until(() => page.evaluate(() => window.demo.stats.received >= 20), "the first 20 tokens");
    await page.click("#drop");
    await page.locator("#status", { hasText: "dropped" }).waitFor({ timeout: TIMEOUT });
    const atDrop = await page.evaluate(() => window.demo.stats.received);
    await until(() => page.evaluate(() => window.demo.stats.recoveries === 1), "the recovery after the drop");
    await until(() => page.evaluate(() => window.demo.done), "the end of the answer");

    const { id, stats } = await page.evaluate(() => window.demo);
    const expected = await (await fetch(`${BASE}/llm-demo/answers/${id}`)).text();
    assert.ok(expected.split(" ").length >= 600, "a long answer");
    assert.equal(await page.locator("#answer").textContent(), expected, "the whole answer, in order");
    assert.equal(stats.drops, 1);
    assert.equal(stats.gaps, 0);
    assert.equal(stats.duplicates, 0);
    assert.equal(stats.lost, 0);
    assert.ok(stats.replayed > 0, `tokens streamed while the page was offline were replayed (${stats.replayed})`);
    assert.ok(atDrop < 600, "the drop happened while the answer was streaming");
    await page.locator("#checks", { hasText: "0 gaps, 0 duplicates" }).waitFor({ timeout: TIMEOUT });
  }, { serveModules: false });
});
