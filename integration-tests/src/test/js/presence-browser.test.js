// Presence with @anycable/web in headless Chromium (started by PresenceBrowserTest, which passes the application's
// address in CABLE_BASE): two tabs of one user and a watcher's tab on ChatChannel's room. The user is one id however
// many tabs join with it; closing one tab changes nothing; closing the last one makes one leave, after the TTL.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, RUN, IMPORT_MAP, until, withBrowser, servePage } from "./browser-support.js";

function presencePage(user, room, presenceId) {
  return `<!doctype html><html><head>${IMPORT_MAP}</head><body><script type="module">
    import { createCable } from "@anycable/web";
    window.events = [];
    const cable = createCable("ws://" + location.host + "/cable?user=${user}", {
      protocol: "actioncable-v1-ext-json", logLevel: "warn",
    });
    const channel = cable.subscribeTo("ChatChannel", { room: "${room}" });
    channel.on("presence", (event) => { if (event.type !== "info") window.events.push(event); });
    window.channel = channel;
    await channel.ensureSubscribed();
    ${presenceId ? `await channel.presence.join("${presenceId}", { tab: "${user}" });` : ""}
    window.ready = true;
  </script></body></html>`;
}

const events = (page) => page.evaluate(() => window.events);

test("@anycable/web in Chromium: two tabs are one id, the last tab closed is one leave", async () => {
  const room = `browser-presence-${RUN}`;
  await withBrowser(async (watcher, browser) => {
    await servePage(watcher, BASE, presencePage(`watcher-${RUN}`, room, null));
    await until(() => watcher.evaluate(() => window.ready), "the watcher's subscription");
    const tabs = [];
    for (let i = 0; i < 2; i++) {
      const tab = await browser.newPage();
      await servePage(tab, BASE, presencePage(`ann-${RUN}`, room, `ann-${RUN}`));
      await until(() => tab.evaluate(() => window.ready), `ann's tab ${i + 1}`);
      tabs.push(tab);
    }
    await until(async () => (await events(watcher)).length >= 1, "ann's join");
    // info() from the watcher agrees: one id, with the newest tab's info.
    assert.deepEqual(await watcher.evaluate(() => window.channel.presence.info()), { [`ann-${RUN}`]: { tab: `ann-${RUN}` } });

    await tabs[0].close(); // a closed tab: its session ends, the id stays (the other tab holds it)
    await tabs[1].close();
    await until(async () => (await events(watcher)).length >= 2, "ann's leave, after the TTL");
    assert.deepEqual(await events(watcher), [
      { type: "join", id: `ann-${RUN}`, info: { tab: `ann-${RUN}` } },
      { type: "leave", id: `ann-${RUN}` },
    ]);
  });
});
