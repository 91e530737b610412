// The tutorial's standup board (StandupPage) in headless Chromium, started by StandupBrowserTest, which passes the
// application's address in CABLE_BASE. Two users each log in and open the board, as the tutorial's "Run it" says: each
// in a browser context of its own (a private window: the login is a cookie). The page imports the client the
// extension serves at /_cable/cable.js and nothing else: no npm, no import map, no other host. A note posted in one
// tab shows in the other; "Here" lists both; closing a tab makes its user leave the other's list once the test
// profile's presence TTL (2 s) has ended.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const BASE = process.env.CABLE_BASE;
const TIMEOUT = 120_000;
const RUN = Date.now().toString(36);

/** Polls condition until it returns a truthy value, or fails after TIMEOUT (a loaded 2-core machine is slow). */
async function until(condition, what) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

const here = (page) => page.locator("#here").textContent();
const notes = (page) => page.locator("#notes li").allTextContents();

test("the standup board in two tabs: notes, who is here, and a closed tab leaving", { timeout: 6 * TIMEOUT }, async () => {
  assert.ok(BASE, "CABLE_BASE is set");
  const team = `core-${RUN}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const offsite = [];
  const scripts = [];
  try {
    /** One user's tab: a fresh context (its own cookies), logged in, showing the board once its client is subscribed. */
    async function openBoard(user) {
      const context = await browser.newContext();
      context.setDefaultTimeout(TIMEOUT);
      await context.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return route.continue();
        offsite.push(url.href);
        return route.abort();
      });
      const page = await context.newPage();
      page.on("console", (message) => { if (message.type() === "error") console.log(`[${user}]`, message.text()); });
      page.on("pageerror", (error) => console.log(`[${user} page error]`, error.message));
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(`${BASE}/standup/login?name=${user}&team=${team}`);
      assert.equal(new URL(page.url()).pathname, `/standup/${team}`, "the login redirects to the board");
      // The board's own presence join shows the user under "Here": the client is connected and subscribed.
      await until(async () => (await here(page)).includes(user), `${user} under "Here" on their own board`);
      return { page, context };
    }

    const alice = await openBoard("alice");
    const bob = await openBoard("bob");
    for (const { page } of [alice, bob]) {
      await until(async () => (await here(page)).split(", ").sort().join(",") === "alice,bob", "both under \"Here\"");
    }

    // bob posts with the page's form; alice's board shows it live, bob's own too (the broadcast goes to every tab).
    await bob.page.fill("#post input[name=text]", "shipped the client");
    await bob.page.click("#post button");
    for (const { page } of [alice, bob]) {
      await until(async () => (await notes(page)).includes("bob: shipped the client"), "bob's note on both boards");
    }
    assert.deepEqual(await notes(alice.page), ["bob: shipped the client"], "once, and nothing else");

    // A board rendered now has the note in its HTML (the page's render, not the cable).
    const rendered = await (await fetch(`${BASE}/standup/${team}`)).text();
    assert.ok(rendered.includes("<li>bob: shipped the client</li>"), "the note in a newly rendered page");

    // bob closes his tab: his connection closes, and after the presence TTL alice's "Here" is alice alone.
    await bob.context.close();
    await until(async () => (await here(alice.page)) === "alice", "bob leaving alice's \"Here\"");

    assert.deepEqual([...new Set(scripts)], ["/_cable/cable.js"], "the page loads the module the extension serves, nothing else");
    assert.deepEqual(offsite, [], "the page requested nothing from another host");
  } finally {
    await browser.close();
  }
});
