// Starts the simulator (main.wasm, via Go's wasm_exec.js) and wires the
// page around the canvas to window.schedplay, the page API the Go side
// installs: the editor (editor.js), the controls and keys (controls.js),
// share, export and import (files.js).
// Everything shown to the user is set with textContent, never as HTML.
"use strict";

import { $, inTasks } from "./dom.js";
import { Editor } from "./editor.js";
import { wireControls, syncControls } from "./controls.js";
import { wireFiles } from "./files.js";
import { wireCompare } from "./compare.js";
import { wireLog } from "./log.js";
// The presenter's scrubber and chapters start themselves once the API is up.
import "./timeline.js";
import "./chapters.js";
import { wireLayout } from "./layout.js";
import { startProgress } from "./progress.js";

function showError(text) {
  const el = $("error");
  el.textContent = text;
  el.hidden = false;
}

function wireTabs() {
  const tabs = [...document.querySelectorAll('#tabs [role="tab"]')];
  const select = (tab) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute("aria-controls")).hidden = !on;
    }
  };
  tabs.forEach((t, i) => {
    t.addEventListener("click", () => select(t));
    t.addEventListener("keydown", (e) => {
      const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!d) return;
      const next = tabs[(i + d + tabs.length) % tabs.length];
      select(next);
      next.focus();
      e.preventDefault();
    });
  });
}

function wireEditorToggle() {
  const b = $("toggle-editor");
  const set = (open) => {
    document.body.classList.toggle("no-editor", !open);
    b.setAttribute("aria-expanded", open ? "true" : "false");
    b.textContent = open ? "Hide editor" : "Show editor";
  };
  b.addEventListener("click", () => set(document.body.classList.contains("no-editor")));
  // A window under 1400 px (a laptop, a tablet, a phone) starts with the
  // machine alone: with the editor open its stage would be a third of it.
  set(window.innerWidth >= 1400);
}

// wireRunToEnd: the "to the end" button runs the scenario (and side B) to
// its end in the simulator's worker; the clock line shows the progress,
// the metrics panel both sides' results when they are done.
function wireRunToEnd(api) {
  const b = $("run-to-end");
  if (!b) return;
  b.addEventListener("click", async () => {
    b.disabled = true;
    // Any other call (pause) ends a run to the end where it is.
    const prog = startProgress("Running to the end", () => api.pause());
    const poll = setInterval(() => {
      const st = api.state();
      if (st.duration_ms > 0) prog.update(st.now_ms / st.duration_ms, "simulated " + st.now_ms.toFixed(1) + " of " + st.duration_ms.toFixed(0) + " ms");
    }, 200);
    try {
      const r = await api.runToEnd();
      if (!r.ok && r.error) showError(r.error);
    } finally {
      clearInterval(poll);
      prog.done();
      b.disabled = false;
    }
  });
}

// wireBusy shows a progress bar while the simulator's worker is behind
// the page's calls for over half a second (a long step, seek or chapter
// jump: they cannot be interrupted, so no Cancel; a run to the end has its
// own bar).
function wireBusy(api) {
  let prog = null;
  setInterval(() => {
    const st = api.state();
    const busy = st.busy_ms > 500 && !st.fast_forward;
    if (busy && !prog) prog = startProgress("The simulator is working", null, 0);
    if (!busy && prog) { prog.done(); prog = null; }
    if (prog) prog.update(null, "");
  }, 200);
}

// whenAPI calls fn once window.schedplay is installed.
function whenAPI(fn) {
  const tick = () => {
    const a = window.schedplay;
    if (a && a.loadScenario && a.describe) fn(a);
    else setTimeout(tick, 20);
  };
  tick();
}

// afterFirstFrame calls fn once the canvas has drawn its first frame, or
// FIRST_FRAME_WAIT_MS after the API came (a canvas that cannot draw still
// gets its editor). The editor's first build reads describe() and makes
// the cards, a few hundred ms of this thread on a slow machine: done
// before the first frame, it delayed the machine's picture by as much.
// It also waits, at most PREPARED_WAIT_MS after the first frame, for what
// the worker prepares for the editor (stats().prepared: the preset list and
// describe()'s model, made there instead of on this thread).
const FIRST_FRAME_WAIT_MS = 3000;
const PREPARED_WAIT_MS = 1000;
function afterFirstFrame(api, fn) {
  const from = performance.now();
  let drawn = 0;
  const tick = () => {
    const st = api.stats ? api.stats() : null;
    const now = performance.now();
    if (st && st.first_frame_ms > 0 && !drawn) drawn = now;
    if ((drawn && (st.prepared === 1 || now - drawn > PREPARED_WAIT_MS)) || now - from > FIRST_FRAME_WAIT_MS) fn(api);
    else setTimeout(tick, 20);
  };
  tick();
}

function wirePage() {
  wireTabs();
  wireEditorToggle();
  wireLayout();
  whenAPI((api) => afterFirstFrame(api, (api) => {
    // Each step a task of its own: the whole was one task of 400-800 ms
    // of this thread right after the first frame (issue 19).
    const editor = new Editor(api);
    inTasks([
      () => editor.buildPresets(),
      ...editor.firstBuild(),
      () => wireControls(api, editor),
      () => wireFiles(api, editor),
      () => wireCompare(api, editor),
      () => wireLog(api),
      () => {
        wireRunToEnd(api);
        wireBusy(api);
        // Another revision (a link, a preset, a restart, the console):
        // re-read; and once now, for one that came during the build.
        document.addEventListener("schedplay:scenario", () => {
          // A new scenario's editor is built in tasks of its own, one
          // per part: at once it was one task of 40-60 ms after every
          // preset load (aim9-burst, kernbench; issue 19).
          setTimeout(() => { editor.refresh(false, true); syncControls(api); }, 0);
        });
        editor.refresh();
        // schedplay.ready waits for this (cmd/wasm/page.go, wired).
        window.schedplayWired = true;
      },
      // The page's first history call costs Chromium 25-70 ms here
      // (the first pushState 72 ms, later ones 1-8 ms; issue 19): paid
      // now, in a task of its own, by a write of the same address, not
      // by the link's first push after an import or a preset.
      () => history.replaceState(history.state, "", location.href),
    ]);
  }));
}

// compileWasm fetches and compiles main.wasm once: the same module runs the
// simulator in the worker and draws on this page.
async function compileWasm() {
  try {
    return await WebAssembly.compileStreaming(fetch("main.wasm"));
  } catch (streamErr) {
    // A server without the application/wasm type: compile from bytes.
    const r = await fetch("main.wasm");
    if (!r.ok) throw new Error("main.wasm: HTTP " + r.status + " (run make wasm)");
    return await WebAssembly.compile(await r.arrayBuffer());
  }
}

// workerBooting resolves once the worker has the module (its "booting"
// message, marked schedplay:worker-booting), or after 2 s: a worker that
// never answers costs at most the wait (its error shows on the page).
function workerBooting(worker) {
  return new Promise((resolve) => {
    const done = (answered) => {
      worker.removeEventListener("message", onMsg);
      clearTimeout(timer);
      if (answered) performance.mark("schedplay:worker-booting");
      resolve();
    };
    const onMsg = (e) => { if (e.data && e.data.booting) done(true); };
    const timer = setTimeout(() => done(false), 2000);
    worker.addEventListener("message", onMsg);
  });
}

// workerFirst says when the worker gets the module. With more than two
// cores, before the page's Go starts: the worker's Go start (its package
// initialisers, 0.5-1 s here) runs beside the page's, and the page's Go
// waits for the worker's answer first, because Chromium delivers the
// module with help from this thread and a page busy starting Go held it
// back for seconds. With two cores or fewer, after the page's first
// picture (afterPagePicture): the two Go starts, V8's compile threads and
// the GPU process then compete for the same two cores, and the page's
// start is the path to both first frames (the worker's first frame needs
// the scenario the page's start posts it), so the worker's start only
// slowed the page's. Measured on two cores (docs/performance.md, round
// thirty-six), medians: in fresh browsers the page's first picture
// 0.35-0.8 s sooner and the worker's first frame 0.13-0.54 s sooner; in a
// browser already running the picture 0.08-0.3 s sooner and the worker's
// frame 0.12-0.19 s later.
function workerFirst() {
  return (navigator.hardwareConcurrency || 0) > 2;
}

// afterPagePicture calls fn once, when the page has drawn its first
// picture (the page's Go calls window.schedplayFirstPicture from the frame
// that drew it: cmd/wasm/page.go markFrame), or FIRST_FRAME_WAIT_MS after
// it was called (a canvas that cannot draw still gets its simulator). From
// the frame, not from a timer polling stats(): the page's Go start goes on
// for 0.3-0.7 s after its first picture, in the same task.
function afterPagePicture(fn) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    delete window.schedplayFirstPicture;
    // Called from the page's Go (a frame): a throw here would be its panic.
    try {
      fn();
    } catch (err) {
      showError("The simulator's worker did not start: " + err.message);
    }
  };
  window.schedplayFirstPicture = once;
  setTimeout(once, FIRST_FRAME_WAIT_MS);
}

async function start() {
  if (typeof Go !== "function") {
    showError("wasm_exec.js did not load: run make wasm, then reload.");
    return;
  }
  if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
    showError("This browser has no WebAssembly or no Web Workers.");
    return;
  }
  const go = new Go();
  let instance;
  try {
    // The simulator's thread (web/worker.js, cmd/wasm/worker.go); the Go
    // side on this page finds it as window.schedplayWorker. Started
    // before the compile: Chromium sets a worker up with tasks on this
    // thread, so a worker started after the compile waited for the
    // page's Go start (one task of 2-3 s on a slow machine) and was on
    // the first frame's path. It waits for the module (worker.js).
    const worker = new Worker("worker.js");
    worker.onerror = (e) => showError("The simulator's worker failed: " + (e.message || "error"));
    window.schedplayWorker = worker;
    performance.mark("schedplay:fetch");
    const module = await compileWasm();
    performance.mark("schedplay:compiled");
    const post = () => {
      performance.mark("schedplay:worker-posted");
      const booting = workerBooting(worker);
      worker.postMessage({ module });
      return booting;
    };
    if (workerFirst()) {
      const booting = post();
      instance = await WebAssembly.instantiate(module, go.importObject);
      performance.mark("schedplay:instantiated");
      await booting;
    } else {
      instance = await WebAssembly.instantiate(module, go.importObject);
      performance.mark("schedplay:instantiated");
      afterPagePicture(post);
    }
  } catch (err) {
    showError("Could not load the simulator: " + err.message);
    $("loading").textContent = "The simulator did not load.";
    return;
  }
  try {
    await go.run(instance);
    showError("The simulator stopped.");
  } catch (err) {
    showError("The simulator crashed: " + err.message);
  }
}

wirePage();
start();
