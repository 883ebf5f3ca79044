// A/B: side B is the scenario being edited with a few changes applied
// (schedplay.compare); both sides run in lock-step from the same seed and
// the metrics panel shows them side by side.
"use strict";

import { $, h, clear } from "./dom.js";

export function wireCompare(api, editor) {
  const root = $("ab-fields");
  clear(root);
  const sets = h("textarea", { id: "ab-sets", rows: 4, spellcheck: false, attrs: { "aria-label": "side B changes, one path=value per line" } });
  const add = h("select", { id: "ab-add", attrs: { "aria-label": "add a change to side B" } });
  const run = h("button", { type: "button", id: "ab-run", text: "Compare A with B" });
  const off = h("button", { type: "button", id: "ab-off", text: "Turn A/B off" });
  const status = h("p", { id: "ab-status", class: "summary", attrs: { "aria-live": "polite" } });
  const err = h("p", { class: "field-error", attrs: { role: "alert" }, hidden: true });
  root.append(
    h("div", { class: "field errbox" }, h("label", { htmlFor: "ab-sets", class: "label", text: "Side B: the scenario with" }), sets, err),
    h("div", { class: "row" }, add),
    h("div", { class: "row" }, run, off),
    status,
    h("p", { class: "hint", text: "Turning A/B on restarts both sides at t = 0. The metrics panel shows A, B and B against A." }),
  );

  const showErr = (text) => { err.textContent = text; err.hidden = !text; };

  // fill rebuilds the menu only when the suggestions changed: sync runs at
  // every scenario event (each edit, each preset, each import), and making
  // aim9-burst's 40 options anew took 5-16 ms in a fresh page (0.5 warm);
  // a trace of an import's tasks had 15 ms of selectOption in it.
  let filled = null;
  const fill = () => {
    const m = editor.model;
    if (!m) return;
    const key = (m.suggestions || []).join("\n");
    if (key === filled) return;
    filled = key;
    clear(add);
    add.appendChild(h("option", { value: "", text: "add a change…" }));
    for (const s of m.suggestions || []) add.appendChild(h("option", { value: s, text: s }));
    sets.placeholder = (m.suggestions || [""])[0]; // an example of path=value
  };

  const sync = () => {
    const cur = api.compare() || [];
    if (cur.length) {
      status.textContent = "A/B on. B = A with " + cur.join(", ");
      if (document.activeElement !== sets) sets.value = cur.join("\n");
    } else {
      status.textContent = "A/B is off.";
    }
    off.disabled = !cur.length;
    fill();
  };

  add.addEventListener("change", () => {
    if (!add.value) return;
    const lines = sets.value.split("\n").map((x) => x.trim()).filter(Boolean);
    const path = add.value.split("=")[0];
    // One value per path: a new choice replaces an old one.
    const kept = lines.filter((x) => x.split("=")[0].trim() !== path);
    kept.push(add.value);
    sets.value = kept.join("\n");
    add.value = "";
  });
  run.addEventListener("click", () => {
    if (!sets.value.trim()) return showErr("Write at least one change for side B, or pick one from the menu.");
    const r = api.compare(sets.value);
    showErr(r.ok ? "" : r.error);
    sync();
  });
  off.addEventListener("click", () => {
    const r = api.compare([]);
    showErr(r.ok ? "" : r.error);
    sync();
  });
  document.addEventListener("schedplay:scenario", () => setTimeout(sync, 0));
  sync();
}
