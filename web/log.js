// The event log: the simulator's trace in words (schedplay.log), newest at
// the bottom, filtered by task and CPU, at most KEEP lines; and the "pause
// at the next migration" switch.
"use strict";

import { $, h, clear, setText } from "./dom.js";

const KEEP = 500;

export function wireLog(api) {
  const list = $("log");
  const task = $("log-task"), cpu = $("log-cpu"), moves = $("log-moves");
  let rev = null, since = -1, dropped = 0;
  let entries = [];

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

  const matches = (e) => {
    const t = task.value.trim().toLowerCase();
    if (t && !(e.task || "").toLowerCase().includes(t)) return false;
    const c = cpu.value.trim();
    if (/^\d+$/.test(c)) {
      const n = Number(c);
      if (!Number.isInteger(n) || (e.cpu !== n && e.from !== n)) return false;
    }
    if (moves.checked && e.kind !== "migrate") return false;
    return true;
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
    if (dropped) text += " · " + dropped + " routine events left out while playing fast";
    setText($("log-note"), text);
  };

  // rebuild makes the whole list from the kept entries in one DOM change.
  const rebuild = () => {
    colours = new Map();
    const frag = document.createDocumentFragment();
    for (const e of entries) if (matches(e)) frag.appendChild(line(e));
    list.replaceChildren(frag);
  };

  const render = () => {
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
    if (!r.entries.length) { note(); return; }
    since = r.next;
    const stick = atBottom();
    entries = entries.concat(r.entries);
    if (entries.length > KEEP) entries = entries.slice(entries.length - KEEP);
    if (2 * r.entries.length >= KEEP) {
      // A large batch (a run to the end, a step of seconds) replaces most
      // of the list: build it once rather than append and remove hundreds
      // of lines one by one (a 50-160 ms task at the end of a run).
      rebuild();
    } else {
      colours = new Map();
      const frag = document.createDocumentFragment();
      for (const e of r.entries) if (matches(e)) frag.appendChild(line(e));
      list.appendChild(frag);
      while (list.childElementCount > KEEP) list.firstChild.remove();
      // Lines that fell out of the kept window leave the list too.
      const oldest = entries.length ? entries[0].seq : Infinity;
      while (list.firstChild && Number(list.firstChild.dataset.seq) < oldest) list.firstChild.remove();
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
