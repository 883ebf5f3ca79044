// The event log: the simulator's trace in words (schedplay.log), newest at
// the bottom, filtered by task and CPU, at most KEEP lines; and the "pause
// at the next migration" switch.
"use strict";

import { $, h, clear } from "./dom.js";

const KEEP = 500;

export function wireLog(api) {
  const list = $("log");
  const task = $("log-task"), cpu = $("log-cpu"), moves = $("log-moves");
  let rev = null, since = -1, dropped = 0;
  let entries = [];

  const colour = (cause) => {
    const sw = cause && document.querySelector('.swatch[data-cause="' + CSS.escape(cause) + '"]');
    return sw ? sw.style.backgroundColor : "";
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
    $("log-note").textContent = text;
  };

  const render = () => {
    clear(list);
    for (const e of entries) if (matches(e)) list.appendChild(line(e));
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
    for (const e of r.entries) if (matches(e)) list.appendChild(line(e));
    while (list.childElementCount > KEEP) list.removeChild(list.firstChild);
    // Lines that fell out of the kept window leave the list too.
    const oldest = entries.length ? entries[0].seq : Infinity;
    while (list.firstChild && Number(list.firstChild.dataset.seq) < oldest) list.removeChild(list.firstChild);
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
