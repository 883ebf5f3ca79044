// The event log: the simulator's trace in words (schedplay.log), newest at
// the bottom, filtered by task and CPU, at most KEEP lines; and the "pause
// at the next migration" switch.
"use strict";

import { $, h, clear, setText } from "./dom.js";

const KEEP = 500;

// LIVE is how many lines the list holds while a run plays and the list
// follows its newest line: a burst of events (aim9-burst's fork waves bring
// 200 in one frame) then costs the page's main thread less than half of
// what adding them to 500 lines and laying those out did (issue 19,
// docs/performance.md round nineteen: 3.8-6.5 ms against 10.6-14.7 ms for
// a burst of 200 in headless Chromium). Scrolling up or pausing shows every
// kept line again.
const LIVE = 150;

export function wireLog(api) {
  const list = $("log");
  const task = $("log-task"), cpu = $("log-cpu"), moves = $("log-moves");
  let rev = null, since = -1, dropped = 0;
  let entries = [];
  let live = false; // the list holds only the newest LIVE matching lines

  // A cause's colour is its legend swatch's, looked up once per batch of
  // lines (a run to the end brings 500 at once: 500 querySelector calls).
  let colours = new Map();
  const colour = (cause) => {
    if (!cause) return "";
    let c = colours.get(cause);
    if (c === undefined) {
      const sw = document.querySelector('.swatch[data-cause="' + CSS.escape(cause) + '"]');
      c = sw ? sw.style.backgroundColor : "";
      colours.set(cause, c);
    }
    return c;
  };

  // matcher returns the filters' test, their values read once (a batch
  // tests up to 500 entries).
  const matcher = () => {
    const t = task.value.trim().toLowerCase();
    const c = cpu.value.trim();
    const byCPU = /^\d+$/.test(c), n = Number(c);
    const onlyMoves = moves.checked;
    return (e) => {
      if (t && !(e.task || "").toLowerCase().includes(t)) return false;
      if (byCPU && (!Number.isInteger(n) || (e.cpu !== n && e.from !== n))) return false;
      if (onlyMoves && e.kind !== "migrate") return false;
      return true;
    };
  };

  const line = (e) => {
    const li = h("li", { dataset: { kind: e.kind, seq: e.seq } }, e.text);
    if (e.cause) {
      li.dataset.cause = e.cause;
      const c = colour(e.cause);
      if (c) li.style.borderLeftColor = c;
    }
    return li;
  };

  const atBottom = () => list.scrollHeight - list.scrollTop - list.clientHeight < 24;

  const note = () => {
    const shown = list.childElementCount;
    let text = shown + " of the last " + entries.length + " events shown";
    if (live && shown < entries.filter(matcher()).length) text += " (the newest, while it plays: scroll up or pause for all)";
    if (dropped) text += " · " + dropped + " routine events left out while playing fast";
    setText($("log-note"), text);
  };

  // rebuild makes the whole list from the kept entries in one DOM change
  // (the newest LIVE of them when live).
  const rebuild = () => {
    colours = new Map();
    let shown = entries.filter(matcher());
    if (live) shown = shown.slice(-LIVE);
    const frag = document.createDocumentFragment();
    for (const e of shown) frag.appendChild(line(e));
    list.replaceChildren(frag);
  };

  // trim removes the first n lines in one DOM change.
  const trim = (n) => {
    if (n <= 0) return;
    if (n >= list.childElementCount) { list.replaceChildren(); return; }
    const r = document.createRange();
    r.setStartBefore(list.firstChild);
    r.setEndBefore(list.children[n]);
    r.deleteContents();
  };

  // expand ends live: the kept lines older than the first one shown go in
  // above it, and the browser's scroll anchoring keeps in view what was.
  const expand = () => {
    live = false;
    const first = list.firstElementChild ? Number(list.firstElementChild.dataset.seq) : Infinity;
    const matches = matcher();
    colours = new Map();
    const frag = document.createDocumentFragment();
    for (const e of entries) {
      if (e.seq >= first) break;
      if (matches(e)) frag.appendChild(line(e));
    }
    list.insertBefore(frag, list.firstChild);
  };

  const render = () => {
    live = api.state().playing;
    rebuild();
    list.scrollTop = list.scrollHeight;
    note();
  };

  const poll = () => {
    const r = api.log(since);
    if (!r) return;
    if (r.rev !== rev) {
      rev = r.rev;
      entries = [];
      clear(list);
    }
    dropped = r.dropped;
    const stick = atBottom();
    // A hidden list (a closed drawer, talk mode) is never laid out, so
    // holding fewer lines gains nothing there, and shown again it would
    // have to put the rest back in view.
    const follow = stick && list.clientHeight > 0 && api.state().playing;
    if (live && !follow) expand();
    if (!r.entries.length) {
      if (stick) list.scrollTop = list.scrollHeight;
      note();
      return;
    }
    since = r.next;
    entries = entries.concat(r.entries);
    if (entries.length > KEEP) entries = entries.slice(entries.length - KEEP);
    if (follow) live = true;
    const cap = live ? LIVE : KEEP;
    if (2 * r.entries.length >= cap) {
      // A large batch (a run to the end, a step of seconds, a fork wave
      // while live) replaces most of the list: build it once rather than
      // append and remove hundreds of lines (a 50-160 ms task at the end
      // of a run).
      rebuild();
    } else {
      colours = new Map();
      const frag = document.createDocumentFragment();
      const matches = matcher();
      for (const e of r.entries) if (matches(e)) frag.appendChild(line(e));
      list.appendChild(frag);
      trim(list.childElementCount - cap);
      // Lines that fell out of the kept window leave the list too.
      const oldest = entries.length ? entries[0].seq : Infinity;
      let n = 0;
      for (let li = list.firstElementChild; li && Number(li.dataset.seq) < oldest; li = li.nextElementSibling) n++;
      trim(n);
    }
    if (stick) list.scrollTop = list.scrollHeight;
    note();
  };

  // A CPU filter that is no CPU number says so instead of showing nothing.
  const cpuCheck = () => {
    const c = cpu.value.trim();
    const bad = c !== "" && !(/^\d+$/.test(c));
    cpu.setAttribute("aria-invalid", bad ? "true" : "false");
    cpu.classList.toggle("bad", bad);
    const slot = $("log-cpu-error");
    slot.textContent = bad ? "CPU: \u201c" + c + "\u201d is not a CPU number (0, 1, 2, …); the log is not filtered by CPU" : "";
    slot.hidden = !bad;
  };
  cpu.addEventListener("input", cpuCheck);
  for (const el of [task, cpu]) el.addEventListener("input", render);
  moves.addEventListener("change", render);

  const pom = $("pause-on-move");
  pom.addEventListener("change", () => api.pauseOnMove(pom.checked));
  pom.checked = api.pauseOnMove();

  setInterval(poll, 250);
  poll();
}
