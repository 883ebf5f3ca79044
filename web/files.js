// Share link, export and import. The page has no backend: exports are Blob
// URLs made in the browser, imports are read from a pasted text, a chosen
// file or a file dropped anywhere on the page, and handed to the page API.
"use strict";

import { $, download, slug } from "./dom.js";
import { startProgress, fmtBytes } from "./progress.js";

// Files larger than this are refused before they are read: a sched trace
// may be this large; the simulator's worker refuses anything else over
// 1 MiB (and scenarios over 256 KiB).
const MAX_IMPORT = 32 << 20;

function showIn(slotId, text) {
  const el = $(slotId);
  el.textContent = text;
  el.hidden = !text;
}

export function wireFiles(api, editor) {
  $("share").addEventListener("click", async () => {
    // The view too: the receiver sees the speed, A/B, talk mode and pause.
    const link = api.shareLink(true);
    if (!link) {
      // Over the link limit: say so here, where the link was asked for.
      $("share-status").textContent = "no link: " + api.error();
      setTimeout(() => { $("share-status").textContent = ""; }, 12000);
      return;
    }
    try {
      await navigator.clipboard.writeText(link);
      $("share-status").textContent = "link copied";
    } catch (err) {
      // No clipboard (insecure context, denied): the address bar has it.
      history.replaceState(null, "", link);
      $("share-status").textContent = "the link is in the address bar";
    }
    setTimeout(() => { $("share-status").textContent = ""; }, 3000);
  });

  $("export-json").addEventListener("click", () => {
    const title = JSON.parse(api.scenario()).title;
    download(slug(title) + ".json", api.exportScenario(), "application/json");
  });

  // Trace exports run the scenario in the page (it may take a few seconds)
  // and offer the file as a download.
  const formats = $("export-formats");
  formats.hidden = !api.export;
  let exporting = false;
  for (const b of formats.querySelectorAll("button[data-format]")) {
    b.addEventListener("click", async () => {
      if (exporting) return;
      exporting = true;
      const all = formats.querySelectorAll("button[data-format]");
      for (const x of all) x.disabled = true;
      showIn("export-error", "");
      const label = b.textContent;
      $("export-status").textContent = label + ": running the scenario…";
      const prog = startProgress("Exporting " + label, api.cancelJobs ? () => api.cancelJobs() : null);
      try {
        const r = await api.export(b.dataset.format, (frac) => {
          $("export-status").textContent = label + ": running the scenario… " + Math.round(frac * 100) + " %";
          prog.update(frac, "simulated time");
        });
        if (r.cancelled) {
          $("export-status").textContent = label + ": cancelled.";
        } else if (r.ok) {
          download(r.name, r.data, r.type);
          $("export-status").textContent = label + ": saved " + r.name + " (" + r.data.length.toLocaleString("en") + " bytes).";
        } else {
          $("export-status").textContent = "";
          showIn("export-error", r.error);
        }
      } finally {
        prog.done();
        exporting = false;
        for (const x of all) x.disabled = false;
      }
    });
  }

  // importText loads data (a string, or a file's bytes as an ArrayBuffer,
  // handed over to the simulator's worker, which decodes it) as a scenario,
  // an rt-app JSON, lscpu -p output or a sched trace; errors go next to
  // the import box, and on error nothing is replaced.
  const importText = async (data, source, size, shown) => {
    showIn("import-error", "");
    showIn("import-status", "");
    const name = source || "";
    const prog = shown || startProgress("Importing " + (name || "the pasted text"), () => api.cancelJobs());
    let r;
    try {
      r = await api.importText(data, name, "", (p) => {
        prog.update(p.frac, (p.frac >= 0 ? "" : "decoding ") + fmtBytes(p.bytes || size));
      });
    } finally {
      prog.done();
    }
    if (r.cancelled) {
      showIn("import-status", (source ? source + ": " : "") + "import cancelled; nothing was replaced.");
      return false;
    }
    if (!r.ok) {
      const notes = r.notes || [];
      showIn("import-error", (source ? source + ": " : "") + r.error + (notes.length ? "\n" + notes.join("\n") : ""));
      return false;
    }
    const what = { scenario: "scenario loaded", rtapp: "rt-app workload imported onto this machine", lscpu: "machine imported from lscpu", ftrace: "sched trace imported" }[r.kind] || "loaded";
    const notes = r.notes || [];
    showIn("import-status", (source ? source + ": " : "") + what +
      (notes.length ? ".\n" + notes.join("\n") : "."));
    editor.refresh(false, true);
    return true;
  };

  $("import-load").addEventListener("click", () => {
    const text = $("import-text").value;
    if (!text.trim()) {
      showIn("import-error", "Paste a scenario JSON, an rt-app JSON or lscpu -p output into the box first.");
      return;
    }
    importText(text, "");
  });

  const readFile = (file) => {
    if (file.size > MAX_IMPORT) {
      showIn("import-error", file.name + ": " + file.size + " bytes is too large to import (the limit is " + MAX_IMPORT + ").");
      return;
    }
    // The bytes, not a string: they are transferred to the worker as they
    // are. The bar covers the reading too.
    let cancelled = false;
    const prog = startProgress("Importing " + file.name, () => { cancelled = true; api.cancelJobs(); });
    prog.update(null, "reading " + fmtBytes(file.size));
    file.arrayBuffer().then((buf) => {
      if (cancelled) {
        prog.done();
        showIn("import-status", file.name + ": import cancelled; nothing was replaced.");
        return;
      }
      importText(buf, file.name, file.size, prog);
    }, (err) => { prog.done(); showIn("import-error", file.name + ": " + err.message); });
  };
  $("import-file").addEventListener("change", (e) => {
    const f = e.target.files && e.target.files[0];
    if (f) readFile(f);
    e.target.value = "";
  });

  // Drop anywhere. The overlay tells the user the page will take the file.
  const overlay = $("drop-overlay");
  let depth = 0;
  const hasFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].some((t) => t === "Files" || t === "text/plain");
  window.addEventListener("dragenter", (e) => { if (hasFiles(e)) { depth++; overlay.hidden = false; } });
  window.addEventListener("dragleave", () => { if (--depth <= 0) { depth = 0; overlay.hidden = true; } });
  window.addEventListener("dragover", (e) => { if (hasFiles(e)) e.preventDefault(); });
  window.addEventListener("drop", (e) => {
    depth = 0;
    overlay.hidden = true;
    const dt = e.dataTransfer;
    if (!dt) return;
    e.preventDefault();
    // Show the result where the import box is.
    $("tab-scenario").click();
    if (dt.files && dt.files.length) readFile(dt.files[0]);
    else {
      const text = dt.getData("text/plain");
      if (text) importText(text, "dropped text");
    }
  });
}
