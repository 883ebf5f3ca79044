// Starts the simulator (main.wasm, via Go's wasm_exec.js) and wires the
// page's buttons to window.schedplay, the page API the Go side installs.
// Everything shown to the user is set with textContent, never as HTML.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  function showError(text) {
    const el = $("error");
    el.textContent = text;
    el.hidden = false;
  }

  function api() {
    return window.schedplay && window.schedplay.loadScenario ? window.schedplay : null;
  }

  function wire() {
    $("play").addEventListener("click", () => { const a = api(); if (a) a.play(); });
    $("pause").addEventListener("click", () => { const a = api(); if (a) a.pause(); });
    $("step").addEventListener("click", () => { const a = api(); if (a) a.step(0.1); });
    $("speed").addEventListener("change", (e) => {
      const a = api();
      if (a) a.setSpeed(parseFloat(e.target.value));
    });
    $("preset").addEventListener("change", (e) => {
      const a = api();
      if (a && e.target.value) a.loadPreset(e.target.value);
    });
    $("share").addEventListener("click", async () => {
      const a = api();
      if (!a) return;
      const link = a.shareLink();
      try {
        await navigator.clipboard.writeText(link);
        $("share-status").textContent = "copied";
      } catch (err) {
        // No clipboard (insecure context, denied): put the link in the URL bar.
        history.replaceState(null, "", link);
        $("share-status").textContent = "in the address bar";
      }
      setTimeout(() => { $("share-status").textContent = ""; }, 3000);
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

  wire();
  start();
})();
