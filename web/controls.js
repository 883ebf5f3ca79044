// Playback controls, the seed, talk mode and the page's keyboard keys.
"use strict";

import { $, h, setAttr, setProp } from "./dom.js";
import { syncPlayToggle, wireTooltip } from "./layout.js";

// syncControls makes the controls show the session's state (changed from
// the console, by a key, or by a new scenario).
// frameStep is one frame (1/60 s) of playing at speed, in simulated ms.
export function frameStep(speed) { return 1000 / 60 * speed; }

// stepLabel says a step of ms simulated milliseconds: "+16.7 µs", "+0.17 ms".
export function stepLabel(ms) {
  if (ms < 1) return "+" + (ms * 1000).toPrecision(3).replace(/\.?0+$/, "") + " µs";
  return "+" + ms.toPrecision(3).replace(/\.?0+$/, "") + " ms";
}

export function syncControls(api) {
  const st = api.state();
  const step = $("step");
  const label = stepLabel(frameStep(st.speed));
  if (step.textContent !== label) {
    step.textContent = label;
    step.title = "pause and advance " + label.slice(1) + " of simulated time: one frame of playing at this speed (key →)";
  }
  setAttr($("play"), "aria-pressed", st.playing ? "true" : "false");
  setAttr($("pause"), "aria-pressed", st.playing ? "false" : "true");
  syncPlayToggle(st.playing);
  const sel = $("speed");
  let opt = [...sel.options].find((o) => Math.abs(parseFloat(o.value) / st.speed - 1) < 1e-9);
  if (!opt || !opt.dataset.extra) {
    for (const o of [...sel.options]) if (o.dataset.extra && o !== opt) o.remove();
  }
  if (!opt) {
    // A speed set by a key or the console: show it in the menu too.
    opt = document.createElement("option");
    opt.value = String(st.speed);
    opt.textContent = st.speed_label;
    opt.dataset.extra = "1";
    const after = [...sel.options].find((o) => parseFloat(o.value) > st.speed);
    sel.insertBefore(opt, after || null);
  }
  setProp(sel, "value", opt.value);
  setProp($("undo"), "disabled", !st.can_undo);
  setProp($("redo"), "disabled", !st.can_redo);
  const seed = $("seed");
  if (document.activeElement !== seed) {
    try { setProp(seed, "value", String(JSON.parse(api.scenario()).seed)); } catch (e) { /* keep */ }
  }
}

function fieldError(el, text) {
  const slot = el.closest(".errbox").querySelector(".field-error");
  slot.textContent = text;
  slot.hidden = !text;
}

// setTalk asks for talk mode; the page switches with the next frame (the
// Go side shows Frame.Talk, whoever changed it: this, the T key, the console).
export function setTalk(api, on) {
  api.talk(on);
}

export function wireControls(api, editor) {
  const sync = () => syncControls(api);
  $("play").addEventListener("click", () => { api.play(); sync(); });
  $("pause").addEventListener("click", () => { api.pause(); sync(); });
  $("play-toggle").addEventListener("click", () => { if (api.state().playing) api.pause(); else api.play(); sync(); });
  // The step button advances what → does: one frame of playing at the
  // current speed (its label says how much).
  $("step").addEventListener("click", () => { api.step(frameStep(api.state().speed)); sync(); });
  $("restart").addEventListener("click", () => { api.restart(); sync(); });
  $("speed").addEventListener("change", (e) => { api.setSpeed(parseFloat(e.target.value)); sync(); });

  const seed = $("seed");
  const setSeed = (v) => {
    const r = api.set("seed", v);
    fieldError(seed, r.ok ? "" : (r.problems && r.problems[0] ? r.problems[0].problem : r.error));
    if (r.ok) { editor.refresh(); sync(); }
  };
  seed.addEventListener("change", () => setSeed(seed.value.trim()));
  $("new-seed").addEventListener("click", () => {
    const v = Math.floor(Math.random() * 1e9) + 1;
    seed.value = String(v);
    setSeed(String(v));
  });

  $("talk").addEventListener("click", () => setTalk(api, !api.talk()));
  const travel = (redo) => {
    const r = redo ? api.redo() : api.undo();
    if (r.ok) editor.refresh();
    sync();
  };
  // The QR code of the link with the view, for the audience's phones.
  const overlay = $("qr-overlay");
  const showQR = (on) => {
    if (!on) { overlay.hidden = true; return; }
    const link = api.shareLink(true);
    if (!link) { $("share-status").textContent = "no QR code: " + api.error(); return; }
    const url = link;
    const r = api.qr(url);
    if (!r.ok) { $("share-status").textContent = "no QR code: " + r.error; return; }
    // The image is made on first use: the page has no images of its own
    // until then (TestTitleIsText counts them).
    let img = $("qr-img");
    if (!img) {
      img = h("img", { id: "qr-img", alt: "QR code of this run's link" });
      overlay.insertBefore(img, overlay.firstChild);
    }
    img.src = r.src;
    $("qr-caption").textContent = "Scan to open this run (" + url.length + " characters, QR version " + r.version + "). Click, Esc or Q to close.";
    overlay.hidden = false;
  };
  $("qr-button").addEventListener("click", () => showQR(overlay.hidden));
  overlay.addEventListener("click", () => showQR(false));
  $("undo").addEventListener("click", () => travel(false));
  $("redo").addEventListener("click", () => travel(true));
  $("blank").addEventListener("click", () => {
    const r = api.blank();
    if (r.ok) editor.refresh();
    sync();
  });

  // Keys. The canvas side (cmd/wasm/keys.go) takes its keys on the whole
  // page and marks them handled (defaultPrevented); these are the same
  // keys for a page whose canvas side does not take them, so that the
  // help line holds either way.
  document.addEventListener("keydown", (e) => {
    // A modal dialog (a confirmation) has the keys: Esc closes it.
    if (document.querySelector("dialog[open]")) return;
    const t = e.target;
    const inText = t && (t.isContentEditable || /^(INPUT|TEXTAREA)$/.test(t.tagName));
    // Ctrl+Z / Ctrl+Shift+Z (Cmd on a Mac, and Ctrl+Y): the scenario's undo
    // and redo, except in a text field, where they are the field's own.
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !inText && /^[zZyY]$/.test(e.key)) {
      travel(e.shiftKey || e.key === "y" || e.key === "Y");
      e.preventDefault();
      return;
    }
    if (e.key === "Escape" && !overlay.hidden) {
      showQR(false);
      e.preventDefault();
      return;
    }
    if (e.key === "Escape" && api.talk()) {
      setTalk(api, false);
      e.preventDefault();
      return;
    }
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (t && /^(BUTTON|A|SUMMARY)$/.test(t.tagName) && (e.key === " " || e.key === "Enter")) return;
    switch (e.key) {
      case "t": case "T":
        setTalk(api, !api.talk());
        break;
      case " ":
        if (api.state().playing) api.pause(); else api.play();
        break;
      case "ArrowRight":
        api.step(frameStep(api.state().speed)); // one frame of playing
        break;
      case "p": case "P":
        $("pause-on-move").checked = api.pauseOnMove(!api.pauseOnMove());
        break;
      case "+": case "=": case "-": case "_": case "−": {
        // The next speed in the menu.
        const opts = [...$("speed").options].map((o) => parseFloat(o.value));
        const cur = api.state().speed;
        const up = e.key === "+" || e.key === "=";
        const next = up ? opts.find((x) => x > cur * 1.001) : opts.slice().reverse().find((x) => x < cur * 0.999);
        if (next) api.setSpeed(next);
        break;
      }
      case "a": case "A": {
        const cur = api.compare() || [];
        const sets = $("ab-sets") && $("ab-sets").value.trim();
        api.compare(cur.length ? [] : (sets || "policy.features.WAKE_AFFINE=false"));
        break;
      }
      case "n": case "N": {
        const list = api.presets() || [];
        const cur = (api.describe() || {}).preset;
        const i = list.findIndex((p) => p.name === cur);
        if (list.length) api.loadPreset(list[(i + 1) % list.length].name);
        break;
      }
      case "q": case "Q":
        showQR(overlay.hidden);
        break;
      case "f": case "F":
        if (document.fullscreenElement) document.exitFullscreen();
        else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
        break;
      default:
        return;
    }
    e.preventDefault();
    sync();
  });
  wireTooltip(api);
  sync();
  setInterval(sync, 500);
}
