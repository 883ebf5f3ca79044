// Progress of long jobs (imports, exports, runs to the end): a bar at the
// bottom of the window, shown once a job has run 0.4 s (so everything
// over half a second gets one and quick jobs do not flicker), with its
// percentage (or, where the worker cannot tell how far it is, the bytes
// and the time so far) and a Cancel button where a job can be cancelled.
// The bar is role=progressbar with aria-valuenow (none while the fraction
// is unknown) and aria-valuetext; the line above it is a polite live
// region. Several jobs stack. Text only (textContent), never HTML.
"use strict";

import { h } from "./dom.js";

const SHOW_AFTER_MS = 400;

let area = null;

// Its own style sheet (the page's CSP allows only style sheets of the
// page's origin, no inline styles), loaded with the page's scripts so it
// is there before the first bar.
if (!document.querySelector('link[href="progress.css"]')) {
  document.head.appendChild(h("link", { rel: "stylesheet", href: "progress.css" }));
}

function ensureArea() {
  if (area) return area;
  area = h("div", { id: "progress-area", class: "progress-area" });
  document.body.appendChild(area);
  return area;
}

function fmtBytes(n) {
  if (!(n > 0)) return "";
  if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + " MB";
  if (n >= 1 << 10) return Math.round(n / (1 << 10)) + " KB";
  return n + " bytes";
}

// startProgress shows a job's progress. label names the job ("Importing
// trace.txt"); cancel, when given, is what the Cancel button does. The
// handle's update(frac, detail) sets the fraction done (0..1, or null /
// a negative number when unknown) and a short detail text; done() removes
// it. showAfterMS delays the bar (default 0.4 s). Returns the handle.
export function startProgress(label, cancel, showAfterMS = SHOW_AFTER_MS) {
  const t0 = performance.now();
  let frac = null;
  let detail = "";
  let el = null;
  let bar, fill, text;
  let timer = 0;
  let closed = false;

  const render = () => {
    if (!el) return;
    const secs = ((performance.now() - t0) / 1000).toFixed(1) + " s";
    const known = frac !== null && frac >= 0;
    const pct = known ? Math.min(100, Math.max(0, Math.round(frac * 100))) : null;
    const words = (known ? `${pct} %` : "working") + (detail ? " · " + detail : "") + " · " + secs;
    text.textContent = words;
    if (known) {
      bar.setAttribute("aria-valuenow", String(pct));
      fill.style.width = `${pct}%`;
      bar.classList.remove("indeterminate");
    } else {
      bar.removeAttribute("aria-valuenow");
      bar.classList.add("indeterminate");
    }
    bar.setAttribute("aria-valuetext", words);
  };

  const show = () => {
    if (closed || el) return;
    fill = h("div", { class: "progress-fill" });
    bar = h("div", {
      class: "progress-bar",
      attrs: { role: "progressbar", "aria-label": label, "aria-valuemin": 0, "aria-valuemax": 100 },
    }, fill);
    text = h("span", { class: "progress-text" });
    const head = h("div", { class: "progress-head", attrs: { "aria-live": "polite" } },
      h("span", { class: "progress-label", text: label }), text);
    const kids = [head, bar];
    if (cancel) {
      kids.push(h("button", { type: "button", class: "progress-cancel", text: "Cancel", on: { click: () => cancel() } }));
    }
    el = h("div", { class: "progress-job" }, ...kids);
    ensureArea().appendChild(el);
    render();
    timer = setInterval(render, 250);
  };
  const showTimer = setTimeout(show, showAfterMS);

  return {
    update(f, d) {
      frac = f === null || f === undefined || !(f >= 0) ? null : f;
      if (d !== undefined) detail = d;
      render();
    },
    done() {
      closed = true;
      clearTimeout(showTimer);
      clearInterval(timer);
      if (el) el.remove();
      el = null;
    },
    // shown says whether the bar is on screen (tests).
    get shown() { return !!el; },
  };
}

export { fmtBytes };
