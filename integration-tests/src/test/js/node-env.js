// What every client test in Node starts from: the application's address (CABLE_BASE, passed by the Java test that
// started it), a run id that keeps names unique across runs on one database, and the few browser globals that
// @anycable/core and @rails/actioncable look for (a visible document, window event listeners).
import assert from "node:assert/strict";

export const BASE = process.env.CABLE_BASE;
assert.ok(BASE, "CABLE_BASE must name the application, e.g. http://127.0.0.1:8081");
export const WS_BASE = BASE.replace(/^http/, "ws");
export const RUN = Date.now().toString(36);

globalThis.document ??= { visibilityState: "visible", addEventListener() {}, removeEventListener() {} };
globalThis.addEventListener ??= () => {};
globalThis.removeEventListener ??= () => {};
