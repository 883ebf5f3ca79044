// Starts the simulator (main.wasm, via Go's wasm_exec.js) and wires the
// page around the canvas to window.schedplay, the page API the Go side
// installs: the editor (editor.js), the controls and keys (controls.js),
// share, export and import (files.js).
// Everything shown to the user is set with textContent, never as HTML.
"use strict";

import { $ } from "./dom.js";
import { Editor } from "./editor.js";
import { wireControls, syncControls } from "./controls.js";
import { wireFiles } from "./files.js";
import { wireCompare } from "./compare.js";
import { wireLog } from "./log.js";

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
  // A narrow window starts with the machine alone.
  set(window.innerWidth >= 1200);
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

function wirePage() {
  wireTabs();
  wireEditorToggle();
  whenAPI((api) => {
    const editor = new Editor(api);
    editor.buildPresets();
    editor.refresh(true);
    wireControls(api, editor);
    wireFiles(api, editor);
    wireCompare(api, editor);
    wireLog(api);
    // Another revision (a link, a preset, a restart, the console): re-read.
    document.addEventListener("schedplay:scenario", () => {
      setTimeout(() => { editor.refresh(); syncControls(api); }, 0);
    });
  });
}

async function start() {
  if (typeof Go !== "function") {
    showError("wasm_exec.js did not load: run make wasm, then reload.");
    return;
  }
  if (typeof WebAssembly !== "object") {
    showError("This browser has no WebAssembly.");
    return;
  }
  const go = new Go();
  let result;
  try {
    const resp = fetch("main.wasm");
    try {
      result = await WebAssembly.instantiateStreaming(resp, go.importObject);
    } catch (streamErr) {
      // A server without the application/wasm type: compile from bytes.
      const r = await fetch("main.wasm");
      if (!r.ok) throw new Error("main.wasm: HTTP " + r.status + " (run make wasm)");
      result = await WebAssembly.instantiate(await r.arrayBuffer(), go.importObject);
    }
  } catch (err) {
    showError("Could not load the simulator: " + err.message);
    $("loading").textContent = "The simulator did not load.";
    return;
  }
  try {
    await go.run(result.instance);
    showError("The simulator stopped.");
  } catch (err) {
    showError("The simulator crashed: " + err.message);
  }
}

wirePage();
start();
