// The simulator's thread: the same main.wasm as the page's (web/loader.js
// compiles it once and posts the compiled module here), run without
// Ebiten: main() sees WorkerGlobalScope and runs the session
// (cmd/wasm/worker.go), taking the page's calls as messages and posting
// frames back.
"use strict";

// Ebiten's package initialisers build a canvas in the document before
// main() runs; the worker never starts Ebiten, so an inert stand-in for the
// page's globals lets them pass: every property is another stand-in, every
// call returns one, numbers read as 0.
const inert = new Proxy(function () {}, {
  get(t, k) {
    if (k === Symbol.toPrimitive) return () => 0;
    if (k === "hidden") return true;
    if (k === "hasFocus") return () => false;
    if (k === "then") return undefined;
    return inert;
  },
  set() { return true; },
  apply() { return inert; },
  construct() { return inert; },
});
class Document {}
Object.defineProperty(Document.prototype, "hidden", { get() { return true; } });
self.Document = Document;
self.document = inert;
self.screen = inert;
self.window = self;

importScripts("wasm_exec.js");

// Calls that arrive before Go installed its handler wait here; worker.go
// takes them (in order) when it starts.
self.schedplayEarly = [];
self.onmessage = async (e) => {
  const d = e.data;
  if (!(d && d.module instanceof WebAssembly.Module)) {
    self.schedplayEarly.push(d);
    return;
  }
  // The page waits for this answer before it starts its own Go (one long
  // task) where the module comes first (web/loader.js workerFirst):
  // Chromium delivers the module with help from the page's thread, so a
  // page busy starting Go held it back for seconds. On two cores the
  // module comes after the page's first picture, and the answer only marks
  // when it came.
  postMessage({ booting: true });
  try {
    const go = new Go();
    const inst = await WebAssembly.instantiate(d.module, go.importObject);
    await go.run(inst);
    postMessage({ error: "the simulator stopped" });
  } catch (err) {
    postMessage({ error: "the simulator crashed: " + (err && err.message ? err.message : String(err)) });
  }
};
