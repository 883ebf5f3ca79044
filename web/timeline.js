// The timeline scrubber under the machine: drag, click or touch anywhere on
// it to show that simulated time exactly (window.schedplay.seek: the newest
// checkpoint is restored and at most one checkpoint interval simulated
// again). Marks above the track count the migrations of each bin of the run
// by cause, in the canvas' cause colours, so the eye finds the bursts; the
// part of the run simulated so far is lighter, the playhead is the accent
// line. Buttons: previous / next migration ([ and ] on the keyboard), one
// step back and forward (← and →). The steps are relative: the worker
// moves from the time it is at when it gets the call (a pause made just
// before included), never from the time the scrubber last showed, which
// trails a playing run.
// Everything shown is set with textContent, never as HTML.
"use strict";

import { setAttr, setText } from "./dom.js";

const POLL_MS = 150;

function el(tag, props = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function fmtMS(ms) {
  if (ms >= 1000) return (ms / 1000).toFixed(ms >= 10000 ? 2 : 3) + " s";
  if (ms >= 1) return ms.toFixed(3) + " ms";
  return (ms * 1000).toFixed(1) + " µs";
}

export class Timeline {
  constructor(api) {
    this.api = api;
    this.info = null;
    this.pending = null; // ms a drag wants, sent on the next animation frame
    this.dragging = false;
    this.build();
    this.poll();
  }

  build() {
    const box = el("div", { id: "timeline", "aria-label": "timeline" });
    const row = el("div", { class: "tl-row" });
    const b = (id, text, title) => {
      const x = el("button", { id, type: "button", title }, text);
      row.appendChild(x);
      return x;
    };
    b("tl-prev-mig", "◀ move", "back to the previous migration (key [)").addEventListener("click", () => this.call(() => this.api.seekMigration(-1)));
    b("tl-back", "◀", "one step back (key ←)").addEventListener("click", () => this.call(() => this.api.stepBack(this.stepMS())));
    this.track = el("canvas", {
      id: "tl-track", role: "slider", tabindex: "0", "aria-label": "simulated time",
      "aria-valuemin": "0", "aria-valuenow": "0", "aria-valuemax": "0",
    });
    row.appendChild(this.track);
    b("tl-fwd", "▶", "one step forward (key →)").addEventListener("click", () => this.call(() => this.api.step(this.stepMS())));
    b("tl-next-mig", "move ▶", "forward to the next migration (key ])").addEventListener("click", () => this.call(() => this.api.seekMigration(1)));
    // The time and the run's length, each kept on one line: a narrow
    // row shows them as two lines, never a word per line.
    this.label = el("span", { id: "tl-label", "aria-live": "off" });
    this.labelNow = el("span", { class: "tl-part" });
    this.labelDur = el("span", { class: "tl-part" });
    this.label.append(this.labelNow, " ", this.labelDur);
    row.appendChild(this.label);
    box.appendChild(row);
    const ui = document.getElementById("ui") || document.body;
    ui.appendChild(box);
    this.box = box;

    // Pointer events: mouse, pen and touch alike; the capture keeps a drag
    // going when the finger leaves the track.
    const t = this.track;
    const at = (e) => {
      const r = t.getBoundingClientRect();
      const f = Math.min(1, Math.max(0, (e.clientX - r.left) / Math.max(1, r.width)));
      return f * (this.info ? this.info.duration_ms : 0);
    };
    t.addEventListener("pointerdown", (e) => {
      if (!this.info) return;
      this.dragging = true;
      t.setPointerCapture(e.pointerId);
      this.want(at(e));
      e.preventDefault();
    });
    t.addEventListener("pointermove", (e) => { if (this.dragging) this.want(at(e)); });
    const end = (e) => {
      if (!this.dragging) return;
      this.dragging = false;
      try { t.releasePointerCapture(e.pointerId); } catch (_) { /* already released */ }
    };
    t.addEventListener("pointerup", end);
    t.addEventListener("pointercancel", end);
    t.addEventListener("keydown", (e) => {
      if (!this.info) return;
      const d = this.info.duration_ms;
      if (e.key === "Home") this.want(0);
      else if (e.key === "End") this.want(d);
      else return;
      e.preventDefault();
    });
    new ResizeObserver(() => this.draw()).observe(t);
  }

  // stepMS: what the ← and → keys step, one frame at the current speed.
  stepMS() {
    const st = this.api.state ? this.api.state() : null;
    return Math.max(1e-6, (st ? st.speed : 0.001) * 1000 / 60);
  }

  call(f) {
    f();
    this.refresh();
  }

  want(ms) {
    this.pending = ms;
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      const ms = this.pending;
      this.pending = null;
      if (ms !== null) this.call(() => this.api.seek(ms));
    });
  }

  refresh() {
    const ti = this.api.timeline ? this.api.timeline() : null;
    if (!ti) return;
    this.info = ti;
    setAttr(this.track, "aria-valuemax", String(ti.duration_ms));
    setAttr(this.track, "aria-valuenow", String(ti.now_ms));
    setAttr(this.track, "aria-valuetext", fmtMS(ti.now_ms));
    setText(this.labelNow, fmtMS(ti.now_ms));
    setText(this.labelDur, "/ " + fmtMS(ti.duration_ms));
    this.draw();
  }

  poll() {
    const tick = () => {
      if (!document.hidden) this.refresh();
      setTimeout(tick, POLL_MS);
    };
    tick();
  }

  draw() {
    const t = this.track, ti = this.info;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(t.clientWidth * dpr)), h = Math.max(1, Math.round(t.clientHeight * dpr));
    // The poll refreshes every POLL_MS: draw only when what is drawn
    // changed (a paused run's track stays as it is; see dom.js setText).
    const key = ti ? [w, h, document.documentElement.className, ti.duration_ms, ti.frontier_ms, ti.now_ms, ti.interval_ms,
      ti.marks.map((l) => l.join(",")).join(";"), ti.colors ? ti.colors.join() : ""].join("|") : w + "|" + h;
    if (key === this.drawnKey && t.width === w && t.height === h) return;
    this.drawnKey = key;
    if (t.width !== w || t.height !== h) { t.width = w; t.height = h; }
    // A canvas in memory, not on the GPU (willReadFrequently): the track
    // is a few rectangles, redrawn from a timer. Chromium gives a GPU
    // canvas that is drawn while the compositor takes no frame a rate
    // limiter, and then ends each task that draws it by waiting until the
    // GPU has run the commands of two draws back; with the machine's
    // WebGL canvas keeping a software GPU (or a phone's) busy, those waits
    // were tasks of 0.2-1.2 s on the main thread (issue 19,
    // docs/performance.md round twenty).
    const g = t.getContext("2d", {willReadFrequently: true});
    const css = getComputedStyle(this.box);
    const v = (name, d) => (css.getPropertyValue(name) || d).trim();
    g.fillStyle = v("--tl-track", "#18212d");
    g.fillRect(0, 0, w, h);
    if (!ti || !(ti.duration_ms > 0)) return;
    const x = (ms) => (ms / ti.duration_ms) * w;
    // What was simulated so far.
    g.fillStyle = v("--tl-done", "#243042");
    g.fillRect(0, 0, x(ti.frontier_ms), h);
    // Marks: per bin, the causes stacked, the tallest bin full height
    // (square-root scale, so one migration still shows).
    const bins = ti.marks.length ? ti.marks[0].length : 0;
    let peak = 0;
    const tot = new Array(bins).fill(0);
    for (const l of ti.marks) l.forEach((n, i) => { tot[i] += n; });
    for (const n of tot) peak = Math.max(peak, n);
    const markH = h * 0.72, base = h - 2 * dpr;
    if (peak > 0) {
      const bw = w / bins;
      for (let i = 0; i < bins; i++) {
        if (!tot[i]) continue;
        const full = markH * Math.sqrt(tot[i] / peak);
        let y = base;
        ti.marks.forEach((l, c) => {
          if (!l[i]) return;
          const hh = full * (l[i] / tot[i]);
          g.fillStyle = ti.colors ? ti.colors[c] : "#888";
          g.fillRect(i * bw, y - hh, Math.max(bw - 0.5 * dpr, 1), hh);
          y -= hh;
        });
      }
    }
    // Checkpoints: small ticks along the bottom.
    g.fillStyle = v("--tl-tick", "#7d8898");
    if (ti.interval_ms > 0) {
      for (let ms = 0, n = 0; ms <= ti.frontier_ms && n < 2000; ms += ti.interval_ms, n++) {
        g.fillRect(x(ms), h - 2 * dpr, Math.max(dpr, 1), 2 * dpr);
      }
    }
    // The playhead.
    g.fillStyle = v("--tl-head", "#3dd6f5");
    g.fillRect(Math.min(w - 3 * dpr, x(ti.now_ms) - 1.5 * dpr), 0, 3 * dpr, h);
  }
}

function start() {
  const a = window.schedplay;
  if (a && a.timeline && a.seek) {
    window.schedplayTimeline = new Timeline(a);
  } else {
    setTimeout(start, 50);
  }
}
start();
