// The scenario editor: presets, machine, tasks and policy. It reads the
// scenario and the resolved policy from schedplay.describe() and writes
// through the page API: set(path, value) for one field, loadScenario(json)
// for structural changes (adding or removing task groups and steps,
// renaming a group). Go validates every change; a rejected change leaves
// the running scenario alone and its problems are shown next to the field
// that caused them (and next to the field each problem's path names).
//
// Rendering: the editor is rebuilt when the scenario's structure changes
// (levels, task groups, steps, idle states), each pane when it is on screen
// (PANES); otherwise only the values are updated, and never the value of the
// field that has the focus.
"use strict";

import { h, clear, $, inTasks } from "./dom.js";

// The schema (describe().schema) names every field: the editor finds its
// rows by group and by pattern, and takes keys, menus, hints and ranges
// from them. A row's key is the last part of its path.
const keyOf = (path) => path.slice(path.lastIndexOf(".") + 1);
const rowsIn = (m, group) => m.schema.fields.filter((f) => f.group === group);
const leaves = (m, group) => rowsIn(m, group).filter((f) => !["object", "map", "list"].includes(f.kind));
const rowAt = (m, path) => m.schema.fields.find((f) => f.path === path);
// menu is a row's enum as [value, label] pairs, with its words.
const menu = (row) => row.enum.map((v, i) => [v, row.enum_docs && row.enum_docs[i] ? v + ": " + row.enum_docs[i] : v]);
// getIn reads a concrete path ("machine.costs.comm.llc") from the scenario.
function getIn(obj, path) {
  for (const k of path.split(".")) obj = obj == null ? undefined : obj[k];
  return obj;
}
// concrete replaces a pattern's placeholders in order: [i] by indices,
// <...> by names.
function concrete(pattern, ...vals) {
  let n = 0;
  return pattern.replace(/\[[a-z]\]|<[a-z]+>/g, (p) => (p[0] === "[" ? "[" + vals[n++] + "]" : vals[n++]));
}
const oneLine = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// applies: a schema row or key exists on the scenario's base (its bases
// list, scenarios/eras.go); the editor offers only those.
const baseOf = (m) => getIn(m.scenario, m.schema.base_path) || rowAt(m, m.schema.base_path).default;
const applies = (m, x) => !x.bases || x.bases.includes(baseOf(m));

export function stepKinds(m) {
  return m.schema.fields.filter((f) => f.one_of === "step").map((f) => keyOf(f.path));
}

export function stepKind(m, st) {
  const kinds = stepKinds(m);
  return kinds.find((k) => st[k]) || kinds[0];
}

// structureKey changes when the editor must be rebuilt: other levels, task
// groups (names), steps (kinds) or idle states.
function structureKey(m) {
  const list = rowsIn(m, "task-group").find((r) => r.kind === "list" && !r.path.includes("["));
  const prog = rowsIn(m, "task-group").find((r) => r.kind === "list" && r.path.includes("["));
  const nameKey = keyOf(leaves(m, "task-group").find((r) => r.kind === "name").path);
  const idle = rowsIn(m, "c-states").find((r) => r.kind === "list");
  return JSON.stringify([
    m.levels,
    (getIn(m.scenario, list.path) || []).map((t) => [t[nameKey], (t[keyOf(prog.path)] || []).map((st) => stepKind(m, st))]),
    getIn(m.scenario, idle.path) ? "own" : "default", m.cstates.length, baseOf(m),
  ]);
}

// confirmDialog asks before a change that takes more than what was
// clicked: a modal dialog with the title, the text, one line per item, the
// action's button and Cancel (Esc too). ok runs on the action; the focus
// goes back to from either way.
export function confirmDialog(title, text, items, action, ok, from) {
  let d = $("confirm");
  if (d) d.remove();
  const yes = h("button", { type: "button", id: "confirm-ok", class: "primary", text: action });
  const no = h("button", { type: "button", id: "confirm-cancel", text: "Cancel" });
  d = h("dialog", { id: "confirm", attrs: { "aria-labelledby": "confirm-title" } },
    h("h2", { id: "confirm-title", text: title }),
    h("p", { text: text }),
    h("ul", { id: "confirm-items" }, items.map((t) => h("li", { text: t }))),
    h("p", { class: "hint", text: "One undo (↶ or Ctrl+Z) brings everything back." }),
    h("div", { class: "row" }, yes, no));
  const close = (run) => {
    d.close();
    d.remove();
    if (from && document.contains(from)) from.focus();
    if (run) ok();
  };
  yes.addEventListener("click", () => close(true));
  no.addEventListener("click", () => close(false));
  d.addEventListener("cancel", (e) => { e.preventDefault(); close(false); });
  document.body.appendChild(d);
  d.showModal();
  no.focus();
}

// CARDS_PER_SLICE: a scenario with more groups is built after the task
// that read its model (refresh). SLICE_MS: how long one task of the main
// thread goes on building cards (at least one) before it yields (buildTasks):
// a card's menus list every group (filled only when reached for: select),
// and a card of a 64-group import took 2-10 ms here when they were made
// whole.
const CARDS_PER_SLICE = 6;
const SLICE_MS = 12;
// LAZY_MENU: a menu with more options than this fills them when reached for
// (select).
const LAZY_MENU = 12;

// labelWidth is a menu label's width in the page's font at 100 px, to rank
// labels (the ranking does not depend on the size); measured once each.
const labelWidths = new Map();
let measureCtx = null;
function labelWidth(text) {
  let w = labelWidths.get(text);
  if (w === undefined) {
    if (!measureCtx) {
      measureCtx = document.createElement("canvas").getContext("2d");
      measureCtx.font = "100px " + getComputedStyle(document.body).fontFamily;
    }
    w = measureCtx.measureText(text).width;
    labelWidths.set(text, w);
  }
  return w;
}

// PANES: the editor's panes, each made by one method from the model and
// each into one element. A new structure builds only the panes on screen;
// the others wait, empty, until they are shown (showPanes): a scenario's
// three hidden panes were made at every preset, import and structural edit
// for nothing, on a main thread that waits for a core behind the worker
// and a software GPU (issue 19, docs/performance.md round twenty-one), and
// the whole editor on a screen that starts without it (phones, laptops).
// A pane is named by its element's id.
const PANES = {
  "pane-scenario": { root: "scenario-fields", build: (ed) => ed.buildScenario() },
  "pane-machine": { root: "machine-fields", build: (ed) => ed.buildMachine() },
  "pane-tasks": { root: "task-fields", build: (ed) => ed.buildTasks(), sliced: true },
  "pane-policy": { root: "policy-fields", build: (ed) => ed.buildPolicy() },
};

export class Editor {
  constructor(api) {
    this.api = api;
    this.model = null;
    this.key = "";
    this.bindings = [];      // {el, get(model), prop}
    this.fields = new Map(); // scenario path -> .field element
    this.presetCards = new Map();
    this.stale = new Set();  // panes not built for this structure yet
    this.reopen = [];        // classes of the cost model's sections left open
    this.unbuiltProblems = []; // the problems shown since the last change, for panes built later
    // A pane shown (its tab chosen, the editor opened, talk mode left) is
    // built at once, before the browser draws it.
    const seen = new MutationObserver(() => this.showPanes());
    for (const name of Object.keys(PANES)) seen.observe($(name), { attributes: true, attributeFilter: ["hidden"] });
    seen.observe(document.body, { attributes: true, attributeFilter: ["class"] });
    seen.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  }

  // shown: pane name is on screen (a drawer's editor counts when open).
  shown(name) {
    return !$(name).hidden && !document.body.classList.contains("no-editor") &&
      !document.documentElement.classList.contains("talk");
  }

  // paneStep builds pane name for this structure if it is on screen, and
  // empties it if not: its controls would write the paths of the structure
  // they were made for.
  paneStep(name) {
    if (!this.model || !this.stale.has(name)) return;
    if (this.shown(name)) {
      this.buildPane(name);
      return;
    }
    if (PANES[name].sliced) this.taskGen = (this.taskGen || 0) + 1; // its pending slices stop
    clear($(PANES[name].root));
  }

  buildPane(name) {
    this.stale.delete(name);
    PANES[name].build(this);
    const pane = $(name);
    for (const c of this.reopen) {
      const d = c && pane.querySelector("details." + CSS.escape(c));
      if (d) d.open = true;
    }
    // The problems shown while it was not built, on its own fields.
    for (const p of this.unbuiltProblems) {
      const f = this.fieldAt(p.path);
      if (f && pane.contains(f)) this.fieldError(f, p.problem);
    }
  }

  // showPanes builds the panes that are on screen and not built yet.
  showPanes() {
    if (!this.model) return;
    for (const name of this.stale) if (this.shown(name)) this.buildPane(name);
  }

  // refresh re-reads the scenario; cheap when nothing changed. sliced:
  // a new structure is built in later tasks, one per step, whatever its
  // size (an import: the page has just taken the imported scenario in a
  // task of its own, and the whole editor at once was 50-60 ms more).
  refresh(force, sliced) {
    const m = this.api.describe();
    if (!m) return;
    if (!force && this.model && m.json === this.model.json) return;
    this.model = m;
    this.clearErrors();
    const key = structureKey(m);
    if (force || key !== this.key) {
      this.key = key;
      this.newStructure();
      // A scenario of many groups (an import) is built in later tasks,
      // one per step (its cards in slices of their own): reading its
      // model is a task of its own on the main thread, and the steps
      // together were one of 38-96 ms after a 64-group import.
      if (sliced || this.taskList(m).length > CARDS_PER_SLICE) {
        const gen = (this.buildGen = (this.buildGen || 0) + 1);
        const steps = this.rebuildSteps().map((f) => () => { if (gen === this.buildGen) f(); });
        setTimeout(() => inTasks(steps), 0);
      } else {
        this.buildGen = (this.buildGen || 0) + 1;
        this.rebuild();
      }
    } else {
      this.update();
    }
    this.markPreset();
  }

  // ---- writing -------------------------------------------------------

  // set changes one field; el is the control that made the change.
  set(path, value, el) {
    return this.result(this.api.set(path, value), el, true);
  }

  // edit makes a structural change in Go (schedplay.edit: renameTask,
  // removeTask, addTask, addStep, moveStep, stepKind, dutyCycle,
  // addIdleState). Its problems are shown next to el only: their paths are
  // those of the rejected structure, not of the fields on screen.
  edit(el, op, ...args) {
    return this.result(this.api.edit(op, ...args), el, false);
  }

  result(r, el, byPath) {
    if (r && r.ok) {
      // Other fields still holding a rejected value keep their own error:
      // a field shows the value being played or why it is not.
      const pending = this.pendingErrors(el);
      this.clearErrors();
      this.refresh();
      this.restoreErrors(pending);
      return true;
    }
    this.showProblems(r, el, byPath);
    // A checkbox or a menu snaps back to what is running; a text field
    // keeps what was typed, so it can be corrected.
    if (el && (el.type === "checkbox" || el.tagName === "SELECT")) this.updateOne(el);
    return false;
  }

  // scenario returns a deep copy of the running scenario to modify.
  scenario() {
    return JSON.parse(this.model.json);
  }

  // ---- errors ----------------------------------------------------------

  clearErrors() {
    this.unbuiltProblems = [];
    for (const e of document.querySelectorAll("#editor .field-error")) {
      e.textContent = "";
      e.hidden = true;
    }
    for (const e of document.querySelectorAll("#editor .has-error")) e.classList.remove("has-error");
  }

  // pendingErrors lists the fields (but el's) that show an error, with the
  // text typed into them.
  pendingErrors(el) {
    const out = [];
    for (const f of document.querySelectorAll("#editor .field.has-error")) {
      const c = f.querySelector("input[data-path], textarea[data-path]");
      const slot = f.querySelector(":scope > .field-error");
      if (!c || c === el || !slot || slot.hidden) continue;
      out.push({ field: f, control: c, text: slot.textContent });
    }
    return out;
  }

  // restoreErrors shows again the errors of fields whose text is still not
  // the value being played (after a refresh, which rewrites the others).
  restoreErrors(pending) {
    for (const p of pending) {
      if (!document.contains(p.control)) continue; // rebuilt: it shows the model
      const b = this.bindings.find((x) => x.el === p.control && x.prop === "value");
      const v = b ? b.get(this.model) : undefined;
      if (p.control.value !== (v === undefined || v === null ? "" : String(v))) this.fieldError(p.field, p.text);
    }
  }

  // showProblems writes each problem next to the field its path names, and
  // all of them next to the control that caused them.
  showProblems(r, el, byPath) {
    const problems = (r && r.problems && r.problems.length) ? r.problems : [{ path: "", problem: (r && r.error) || "rejected" }];
    const own = el ? el.closest(".field, .errbox") : null;
    const ownPath = el && el.dataset.path;
    const lines = [];
    for (const p of problems) {
      const f = p.path && byPath !== false ? this.fieldAt(p.path) : null;
      if (f && f !== own) this.fieldError(f, p.problem);
      // A pane not built yet marks its field when it is (buildPane).
      if (p.path && byPath !== false) this.unbuiltProblems.push(p);
      lines.push(p.path && p.path !== ownPath ? (p.where || p.path) + ": " + p.problem : p.problem);
    }
    if (own) this.fieldError(own, lines.join("\n"));
    else if (byPath === false || !problems.some((p) => this.fieldAt(p.path))) {
      // Nothing to attach it to: the page's error line.
      const e = $("error");
      e.textContent = lines.join("\n");
      e.hidden = false;
    }
  }

  // fieldAt is the field at path, or the nearest one enclosing it (a
  // group's card for a problem with the group as a whole).
  fieldAt(path) {
    for (let p = path || ""; p; p = p.slice(0, Math.max(p.lastIndexOf("."), p.lastIndexOf("["), 0))) {
      const f = this.fields.get(p);
      if (f) return f;
    }
    return null;
  }

  fieldError(field, text) {
    let slot = field.querySelector(":scope > .field-error");
    if (!slot) {
      slot = h("p", { class: "field-error", attrs: { role: "alert" } });
      field.appendChild(slot);
    }
    slot.textContent = text;
    slot.hidden = false;
    field.classList.add("has-error");
  }

  // ---- controls --------------------------------------------------------

  // bind shows get(model) in el's prop now and at every update. An element
  // may have several bindings (its value and its placeholder).
  bind(el, get, prop, put) {
    const b = { el, get, put, prop: prop || (el.type === "checkbox" ? "checked" : "value") };
    this.bindings.push(b);
    this.show(b);
    return el;
  }

  // show writes one binding's value into its element.
  show(b) {
    const v = b.get(this.model);
    if (b.put) b.put(v === undefined || v === null ? "" : String(v));
    else if (b.prop === "checked") b.el.checked = !!v;
    else if (b.prop === "class") b.el.className = v;
    else b.el[b.prop] = v === undefined || v === null ? "" : String(v);
  }

  // updateOne snaps one control back to the value being played (a rejected
  // checkbox or menu).
  updateOne(el) {
    for (const b of this.bindings) if (b.el === el) this.show(b);
  }

  update() {
    const active = document.activeElement;
    for (const b of this.bindings) {
      if (b.el === active && b.prop === "value") continue;
      this.show(b);
    }
  }

  // field wraps a labelled control; path registers it for error messages.
  field(path, label, control, hint, cls, title) {
    const f = h("div", { class: "field" + (cls ? " " + cls : ""), title: title || "" },
      h("label", {}, h("span", { class: "label", text: label }), control),
      hint ? h("p", { class: "hint", text: hint }) : null);
    if (path) this.fields.set(path, f);
    return f;
  }

  // text is a text input writing path on change. get reads its value from
  // the model; write (optional) replaces the default set(path, value).
  text(path, get, opts) {
    opts = opts || {};
    const el = h("input", {
      type: "text", spellcheck: false, autocomplete: "off",
      class: opts.cls || "", placeholder: opts.placeholder || "",
      attrs: Object.assign({ "aria-label": opts.aria || path }, opts.inputmode ? { inputmode: opts.inputmode } : {}),
      dataset: { path },
    });
    if (opts.size) el.size = opts.size;
    if (opts.maxLength) el.maxLength = opts.maxLength;
    el.addEventListener("change", () => {
      const v = el.value.trim();
      if (opts.write) opts.write(v, el);
      else this.set(path, v, el);
    });
    this.bind(el, get);
    if (opts.placeholderOf) this.bind(el, opts.placeholderOf, "placeholder");
    return el;
  }

  // select is a menu writing path on change. A long menu holds only its
  // chosen option until the user reaches for it (a pointer or a touch on
  // it, focus, a key): a 64-group rt-app import made 127 menus of a
  // group's name ("count of", a wake's target) with 64 options each, and
  // 127 of 16 step kinds, 10,500 of the editor's 15,600 elements, all made,
  // styled and laid out on the page's main thread (issue 19).
  select(path, options, get, opts) {
    opts = opts || {};
    const option = ([v, label]) => h("option", { value: v, text: label });
    const lazy = options.length > LAZY_MENU;
    const el = h("select", { dataset: { path }, attrs: { "aria-label": opts.aria || path } },
      lazy ? [] : options.map(option));
    el.addEventListener("change", () => {
      if (opts.write) opts.write(el.value, el);
      else this.set(path, el.value, el);
    });
    if (!lazy) {
      this.bind(el, get);
      return el;
    }
    // Until then a hidden copy of the widest label keeps the menu as wide
    // as it will be (Chromium sizes a menu by its hidden options too).
    const widest = options.reduce((a, o) => (labelWidth(o[1]) > labelWidth(a[1]) ? o : a));
    const sizer = () => h("option", { value: "", text: widest[1], attrs: { hidden: "", disabled: "" } });
    let whole = false;
    const fill = () => {
      if (whole) return;
      whole = true;
      const v = el.value;
      el.replaceChildren(...options.map(option));
      el.value = v;
    };
    for (const type of ["pointerdown", "mousedown", "touchstart", "focus", "keydown"]) el.addEventListener(type, fill);
    this.bind(el, get, "value", (v) => {
      if (!whole) el.replaceChildren(option(options.find(([x]) => x === v) || [v, v]), sizer());
      el.value = v;
    });
    return el;
  }

  // override is a checkbox for a switch with a base default: checking it
  // to the base's value removes the override.
  switchBox(path, eff, base, aria) {
    const el = h("input", { type: "checkbox", dataset: { path }, attrs: { "aria-label": aria } });
    el.addEventListener("change", () => {
      const on = el.checked;
      this.set(path, on === base(this.model) ? "" : String(on), el);
    });
    this.bind(el, eff);
    return el;
  }

  // ---- building ----------------------------------------------------------

  rebuild() {
    for (const step of this.rebuildSteps()) step();
  }

  // newStructure drops the controls' bindings and marks every pane to be
  // built for the model's structure: by its step (rebuildSteps), or when it
  // is shown first (showPanes).
  newStructure() {
    // Open sections (the cost model's) stay open: a rebuild comes from an
    // edit made inside one (the first change to the idle states makes the
    // table the scenario's own).
    this.reopen = [...document.querySelectorAll("#editor details[open]")].map((d) => d.className);
    this.bindings = [];
    this.fields = new Map();
    this.stale = new Set(Object.keys(PANES));
  }

  // rebuildSteps builds a new structure (newStructure) in parts, each a
  // task's worth: the page's first build and a new scenario's run them in
  // tasks of their own, an edit's at once.
  rebuildSteps() {
    const active = document.activeElement;
    const focus = active && active.dataset ? active.dataset.path : null;
    return [
      () => {
        this.paneStep("pane-scenario");
        this.paneStep("pane-machine");
      },
      () => this.paneStep("pane-tasks"),
      () => this.paneStep("pane-policy"),
      () => {
        if (!focus) return;
        const again = document.querySelector('#editor [data-path="' + CSS.escape(focus) + '"]');
        if (again) again.focus();
      },
    ];
  }

  // firstBuild is refresh(true) as a list of steps for the page's first
  // build, which runs each in a task of its own: at once it was one task
  // of 150-300 ms of the main thread right after the first frame (issue
  // 19). A step that finds the scenario changed under it (a newer build
  // started) does nothing; the caller refreshes at the end.
  firstBuild() {
    let gen;
    const guard = (f) => () => { if (gen === this.buildGen) f(); };
    return [
      () => {
        this.model = this.api.describe();
        this.key = this.model ? structureKey(this.model) : "";
        gen = this.buildGen = (this.buildGen || 0) + 1;
        this.newStructure();
      },
      ...this.rebuildSteps().map((f) => guard(() => { if (this.model) f(); })),
      guard(() => this.markPreset()),
    ];
  }

  // Presets never change: built once.
  buildPresets(onLoad) {
    const root = $("presets");
    clear(root);
    for (const p of this.api.presets() || []) {
      const card = h("button", {
        type: "button", class: "preset", dataset: { preset: p.name },
        title: p.description,
        on: {
          click: () => {
            const r = this.api.loadPreset(p.name);
            if (!r.ok) this.showProblems(r, card);
            else { this.refresh(); if (onLoad) onLoad(p.name); }
          },
        },
      }, h("span", { class: "preset-title", text: p.title || p.name }),
      h("span", { class: "preset-summary", text: p.summary }));
      this.presetCards.set(p.name, card);
      root.appendChild(h("div", { class: "errbox" }, card));
    }
  }

  markPreset() {
    for (const [name, card] of this.presetCards) {
      const on = this.model && this.model.preset === name;
      card.classList.toggle("current", on);
      card.setAttribute("aria-pressed", on ? "true" : "false");
    }
    const note = $("preset-note");
    if (note) {
      note.textContent = this.model && this.model.preset ? "" :
        "The scenario playing is not a preset as written (changed, or from a link or a file).";
    }
  }

  buildScenario() {
    const root = $("scenario-fields");
    clear(root);
    // The texts of the scenario itself (the seed has its own control).
    for (const r of leaves(this.model, "about").filter((r) => r.kind === "string" || r.kind === "duration")) {
      const k = keyOf(r.path);
      let el;
      if (r.max > 1000) {
        el = h("textarea", { rows: 5, spellcheck: true, dataset: { path: r.path }, attrs: { "aria-label": k } });
        el.addEventListener("change", () => this.set(r.path, el.value, el));
        this.bind(el, (m) => getIn(m.scenario, r.path) || "");
      } else {
        el = this.text(r.path, (m) => getIn(m.scenario, r.path), { size: r.kind === "duration" ? 8 : 0, maxLength: r.max || 0, aria: k });
      }
      root.appendChild(this.field(r.path, oneLine(k), el, r.kind === "duration" ? r.doc + " (" + r.range + ")" : ""));
    }
  }

  buildMachine() {
    const root = $("machine-fields");
    clear(root);
    const dims = h("div", { class: "dims" });
    // The dimensions; a per-CPU machine's list rows (their [i]) are not
    // fields of their own here.
    const topo = leaves(this.model, "topology").filter((r) => !r.path.includes("["));
    for (const r of topo) {
      const label = oneLine(r.doc);
      const el = this.text(r.path, (m) => getIn(m.scenario, r.path), { size: 4, inputmode: "numeric", aria: label });
      dims.appendChild(this.field(r.path, label, el));
    }
    const summary = h("p", { class: "summary", attrs: { "aria-live": "polite" } });
    this.bind(summary, (m) => topo.map((r) => getIn(m.scenario, r.path)).join(" × ") +
      " = " + m.ncpu + " CPUs · sched domains: " + m.levels.join(", "), "textContent");
    // Problems of the machine as a whole (too many CPUs) are about the
    // object the topology rows belong to.
    const machineBox = this.fieldBox(topo.length ? topo[0].path.slice(0, topo[0].path.lastIndexOf(".")) : "", summary);
    root.append(h("h3", { text: "Topology" }), dims, machineBox, h("h3", { text: "Tick and numbering" }));
    // The machine's other fields: a menu when the row has values, else text.
    for (const r of leaves(this.model, "hardware").filter((r) => !r.path.includes("["))) {
      const label = oneLine(r.doc) + (r.unit ? " (" + r.unit + ")" : "");
      const el = r.enum
        ? this.select(r.path, menu(r), (m) => String(getIn(m.scenario, r.path)), { aria: label })
        : this.text(r.path, (m) => getIn(m.scenario, r.path) || "", { size: 8, aria: label, placeholder: r.absent || "" });
      root.appendChild(this.field(r.path, label, el));
    }
    root.appendChild(this.buildCosts());
  }

  // fieldBox is a field without a label: errors about path land there.
  fieldBox(path, ...children) {
    const f = h("div", { class: "field" }, children);
    this.fields.set(path, f);
    return f;
  }

  buildCosts() {
    const costsPath = rowsIn(this.model, "cost-model").find((r) => r.kind === "object").path;
    const costs = (m) => getIn(m.scenario, costsPath) || {};
    const box = h("details", { class: "cost-model" }, h("summary", { text: "Cost model overrides" }),
      h("p", { class: "hint", text: "Empty means the simulator's default (shown greyed). Durations like 2us, 0s." }));
    for (const r of leaves(this.model, "cost-model")) {
      const k = keyOf(r.path);
      const label = oneLine(r.doc) + (r.unit ? " (" + r.unit + ")" : "");
      box.appendChild(this.field(r.path, label,
        this.text(r.path, (m) => costs(m)[k], { size: 7, placeholderOf: (m) => m.defaults[r.path], aria: label })));
    }

    // A table per group of costs by distance: a column per row of the group.
    const table = (group, title) => {
      const parent = rowsIn(this.model, "cost-model").find((r) => r.kind === "object" && rowsIn(this.model, group).some((c) => c.path.startsWith(r.path + ".")));
      const cols = leaves(this.model, group);
      const name = keyOf(parent.path);
      const t = h("table", { class: "grid dist" },
        h("thead", {}, h("tr", {}, h("th", { text: title }), cols.map((c) => h("th", { text: keyOf(c.path) })))));
      // Its rows on a phone (style.css); through the CSSOM, as the page's
      // CSP allows no style attribute.
      t.style.setProperty("--n", String(cols.length + 1));
      const row = h("tr", {}, h("th", { text: "cost" }));
      for (const c of cols) {
        const d = keyOf(c.path);
        const el = this.text(c.path, (m) => (costs(m)[name] || {})[d], { size: 5, placeholderOf: (m) => m.defaults[c.path], aria: title + " " + d });
        row.appendChild(h("td", {}, this.fieldBox(c.path, el)));
      }
      t.appendChild(h("tbody", {}, row));
      return h("div", {}, h("h4", { text: oneLine(parent.doc) }), t);
    };
    box.append(table("refill-by-distance", "moved to"), table("waker-data-by-distance", "waker at"), this.buildIdleStates());
    return box;
  }

  buildIdleStates() {
    const list = rowsIn(this.model, "c-states").find((r) => r.kind === "list");
    const path = list.path;
    const cols = leaves(this.model, "c-states");
    const states = () => this.model.cstates.map((s) => Object.assign({}, s));
    const write = (l, el) => this.set(path, JSON.stringify(l), el);
    const own = !!getIn(this.model.scenario, path);
    const t = h("table", { class: "grid idle" },
      h("thead", {}, h("tr", {}, cols.map((c) => h("th", { text: keyOf(c.path).replace("_", " "), title: c.doc, class: c.kind === "bool" ? "yesno" : undefined })), h("th", { text: "" }))));
    const body = h("tbody");
    this.model.cstates.forEach((_, i) => {
      const cell = (c) => {
        const k = keyOf(c.path);
        const p = concrete(c.path, i);
        if (c.kind === "bool") { // package, polls: a box, written with the whole list
          const box = this.checkBox(p, (m) => (m.cstates[i] || {})[k], "idle state " + i + " " + k,
            (v, el) => { const l = states(); l[i][k] = v; write(l, el); });
          box.title = c.doc;
          return h("td", {}, this.fieldBox(p, box));
        }
        const el = this.text(p, (m) => (m.cstates[i] || {})[k], {
          size: 7, aria: "idle state " + i + " " + k,
          write: (v, el) => { const l = states(); l[i][k] = v; write(l, el); },
        });
        return h("td", {}, this.fieldBox(p, el));
      };
      const del = h("button", { type: "button", class: "small", text: "✕", title: "remove this C-state", attrs: { "aria-label": "remove idle state " + i } });
      del.addEventListener("click", () => { const l = states(); l.splice(i, 1); write(l, del); });
      body.appendChild(h("tr", {}, cols.map(cell), h("td", {}, h("div", { class: "errbox" }, del))));
    });
    t.appendChild(body);
    const add = h("button", { type: "button", text: "+ C-state" });
    add.addEventListener("click", () => this.edit(add, "addIdleState"));
    const none = h("button", { type: "button", text: "No C-states" });
    none.addEventListener("click", () => write([], none));
    const def = h("button", { type: "button", text: "Default C-states", disabled: !own });
    def.addEventListener("click", () => this.set(path, "", def));
    return h("div", {},
      h("h4", { text: "Idle states" + (own ? " (the scenario's own)" : " (the defaults)") }),
      this.fieldBox(path, t),
      h("div", { class: "row errbox" }, add, none, def));
  }

  // ---- tasks -------------------------------------------------------------

  // taskList is the scenario's task groups; taskRows the schema's rows of
  // a group (not of its steps).
  taskList(m) {
    const list = rowsIn(m, "task-group").find((r) => r.kind === "list" && !r.path.includes("["));
    return getIn(m.scenario, list.path) || [];
  }

  // buildTasks builds the group cards, SLICE_MS of them per task of the
  // main thread, so a scenario of many groups (an rt-app import of 64
  // threads) never holds the page for long (issue 19); a newer rebuild
  // abandons the older one's rest.
  buildTasks() {
    const root = $("task-fields");
    clear(root);
    const add = h("button", { type: "button", class: "wide", text: "+ Task group" });
    add.addEventListener("click", () => this.edit(add, "addTask"));
    const tail = h("div", { class: "errbox" }, add);
    root.appendChild(tail);
    const gen = (this.taskGen = (this.taskGen || 0) + 1);
    const slice = (from) => {
      if (gen !== this.taskGen) return; // rebuilt since: that build has its own slices
      // An update between slices changed values, not the groups (that
      // would have rebuilt): the later cards show the newest model.
      const list = this.taskList(this.model);
      if (from >= list.length) return;
      const frag = document.createDocumentFragment();
      // A scenario of a few groups is built at once (an edit's card is
      // there when the edit returns). One of more groups is built in a
      // task after the edit anyway (refresh), so its first slice keeps to
      // SLICE_MS too: six cards of a 64-group import were a 100-150 ms
      // task on their own.
      const until = performance.now() + SLICE_MS;
      const least = from === 0 && list.length <= CARDS_PER_SLICE ? CARDS_PER_SLICE : 1;
      let to = from;
      do {
        frag.appendChild(this.taskCard(list[to], to));
        to++;
      } while (to < list.length && (to - from < least || performance.now() < until));
      root.insertBefore(frag, tail);
      if (to < list.length) setTimeout(() => slice(to), 0);
    };
    slice(0);
  }

  taskCard(t, i) {
    const rows = rowsIn(this.model, "task-group");
    const obj = rows.find((r) => r.kind === "object");
    const prog = rows.find((r) => r.kind === "list" && r.path.includes("["));
    const own = leaves(this.model, "task-group");
    const nameRow = own.find((r) => r.kind === "name");
    const nameKey = keyOf(nameRow.path);
    const base = concrete(obj.path, i);
    const task = (m) => this.taskList(m)[i] || {};
    const names = this.taskList(this.model).map((x) => x[nameKey]);

    const name = this.text(concrete(nameRow.path, i), (m) => task(m)[nameKey], {
      cls: "task-name", size: 12, aria: "task group " + i + " " + nameKey,
      write: (v, el) => { if (v !== t[nameKey]) this.edit(el, "renameTask", i, v); },
    });
    const remove = h("button", { type: "button", class: "small", text: "Remove", title: "remove this task group", attrs: { "aria-label": "remove group " + t[nameKey] } });
    remove.addEventListener("click", () => this.removeGroup(remove, i));

    // The group's other fields: a menu of the other groups for a reference
    // to one, text for the rest, the default or the meaning of "absent"
    // greyed in the box.
    const fields = h("div", { class: "task-fields" });
    for (const r of own) {
      if (r === nameRow) continue;
      const k = keyOf(r.path);
      const p = concrete(r.path, i);
      const aria = t[nameKey] + " " + k.replace("_", " ");
      const el = r.kind === "name"
        ? this.select(p, [["", r.absent || "none"]].concat(names.filter((n, j) => j !== i).map((n) => [n, n])), (m) => task(m)[k] || "", { aria })
        : this.text(p, (m) => task(m)[k], { size: r.kind === "cpulist" ? 9 : 6, inputmode: r.kind === "int" ? "numeric" : "", placeholder: r.default || r.absent || "", aria });
      fields.appendChild(this.field(p, oneLine(k.replace("_", " ")), el, "", "", r.doc));
    }

    const steps = h("ol", { class: "steps" });
    t[keyOf(prog.path)].forEach((st, j) => steps.appendChild(this.stepRow(i, j, st, names)));
    const addStep = h("button", { type: "button", class: "small", text: "+ Step" });
    addStep.addEventListener("click", () => this.edit(addStep, "addStep", i));

    const card = h("section", { class: "task", dataset: { task: i } },
      h("div", { class: "task-head" }, this.field(concrete(nameRow.path, i), "Group", name), h("div", { class: "errbox" }, remove)),
      fields,
      this.dutyCycle(i, t),
      h("h4", { text: "Program (one pass = one op)" }),
      this.fieldBox(concrete(prog.path, i), steps),
      h("div", { class: "errbox" }, addStep));
    this.fields.set(base, card);
    return card;
  }

  // removeGroup removes group i; when other groups name it (client and
  // server wake each other), it first lists what goes with it and asks.
  // The removal is one edit: one undo brings everything back. Problems
  // are shown at the places they name (the paths are those on screen).
  removeGroup(el, i) {
    const rm = (this.model.removals || [])[i];
    const tasks = this.taskList(this.model);
    const others = rm ? (rm.groups || []).filter((g) => g !== i) : [];
    const refs = (rm && rm.refs) || [];
    const go = () => this.result(this.api.edit("removeTask", i), el, true);
    if (!refs.length && !others.length) { go(); return; }
    const items = others.map((g) => "group \"" + tasks[g].name + "\": only \"" + tasks[i].name + "\" starts it (the group goes)")
      .concat(refs.map((r) => r.text));
    confirmDialog("Remove group \"" + tasks[i].name + "\"?",
      "Other groups name it. Removing it also changes these:", items,
      "Remove the references too", go, el);
  }

  // dutyCycle is the shortcut for the common periodic task: run pct% of
  // every period (program [run, timer]).
  dutyCycle(i, t) {
    const cur = this.model.duty[i] || {};
    const pct = h("input", { type: "text", size: 4, value: cur.ok ? String(cur.pct) : "", attrs: { inputmode: "decimal", "aria-label": t.name + " duty cycle percent" }, dataset: { role: "duty-pct" } });
    const period = h("input", { type: "text", size: 6, value: cur.ok ? cur.period : "10ms", attrs: { "aria-label": t.name + " duty cycle period" }, dataset: { role: "duty-period" } });
    const apply = h("button", { type: "button", class: "small", text: "Set program" });
    const box = h("div", { class: "field duty" },
      h("span", { class: "label", text: "Duty cycle" }), pct, h("span", { text: "% of every" }), period, apply);
    apply.addEventListener("click", () => {
      const r = this.api.edit("dutyCycle", i, pct.value.trim(), period.value.trim());
      if (r && r.ok) { this.clearErrors(); this.refresh(); } else this.fieldError(box, (r && r.problems && r.problems.length ? r.problems.map((p) => p.problem).join("\n") : r && r.error) || "rejected");
    });
    return box;
  }

  stepRow(i, j, st, names) {
    const stepRows = rowsIn(this.model, "program-step");
    const obj = stepRows.find((r) => r.kind === "object");
    const base = concrete(obj.path, i, j);
    const progKey = keyOf(rowsIn(this.model, "task-group").find((r) => r.kind === "list" && r.path.includes("[")).path);
    const step = (m) => (this.taskList(m)[i] || {})[progKey] ? this.taskList(m)[i][progKey][j] || {} : {};
    const kind = stepKind(this.model, st);
    const kindRows = stepRows.filter((r) => r.one_of === "step");
    const kindRow = kindRows.find((r) => keyOf(r.path) === kind);
    const kindSel = this.select(base, kindRows.map((r) => [keyOf(r.path), keyOf(r.path)]), (m) => stepKind(m, step(m)), {
      aria: "step " + (j + 1) + " kind",
      write: (k, el) => this.edit(el, "stepKind", i, j, k),
    });
    kindSel.title = kindRow.doc;
    const parts = [kindSel];
    // The kind's value, then the fields that go with it (a wake's fanout
    // and sync): a menu of group names for a name, of values for an enum,
    // a box for a bool, text for a duration.
    const control = (r) => {
      const k = keyOf(r.path);
      const p = concrete(r.path, i, j);
      const aria = "step " + (j + 1) + " " + k;
      if (r.kind === "name") return this.select(p, names.map((n) => [n, n]), (m) => step(m)[k], { aria });
      if (r.enum) return this.select(p, menu(r), (m) => step(m)[k] || r.default, { aria: aria + ": " + r.doc });
      if (r.kind === "bool") return h("label", { class: "inline", title: r.doc }, this.checkBox(p, (m) => step(m)[k], aria), k);
      return this.text(p, (m) => step(m)[k], { size: 7, aria });
    };
    if (kindRow.kind !== "bool") parts.push(control(kindRow));
    // The fields that go with this kind (a wake's fanout and sync, a fork's
    // count); a repeat's body (a list of steps) is edited as the scenario's
    // JSON, not here.
    for (const r of stepRows.filter((r) => r.with === kind && r.kind !== "list")) parts.push(control(r));
    const move = (d, label, text) => {
      const b = h("button", { type: "button", class: "small", text, title: label, attrs: { "aria-label": label + " (step " + (j + 1) + ")" } });
      b.addEventListener("click", () => {
        const k = j + d;
        if (d !== 0 && (k < 0 || k >= this.taskList(this.model)[i][progKey].length)) return;
        this.edit(b, "moveStep", i, j, d);
      });
      return b;
    };
    const main = h("div", { class: "field step-main" }, parts);
    const li = h("li", { class: "step" }, h("div", { class: "step-row" }, main,
      h("div", { class: "step-tools errbox" }, move(-1, "move up", "↑"), move(1, "move down", "↓"), move(0, "remove", "✕"))));
    this.fields.set(base, main);
    for (const r of stepRows) if (r !== obj) this.fields.set(concrete(r.path, i, j), main);
    return li;
  }

  // checkBox is a box for the bool at path; write, when given, commits a
  // change instead of setting path (a cell of a list written whole).
  checkBox(path, get, aria, write) {
    const el = h("input", { type: "checkbox", dataset: { path }, attrs: { "aria-label": aria } });
    el.addEventListener("change", () => write ? write(el.checked, el) : this.set(path, String(el.checked), el));
    this.bind(el, get);
    return el;
  }

  // ---- policy ------------------------------------------------------------

  buildPolicy() {
    const root = $("policy-fields");
    clear(root);
    const m0 = this.model;
    const sec = (title, hint, ...kids) => h("section", { class: "concept" }, h("h3", { text: title }),
      hint ? h("p", { class: "hint", text: hint }) : null, ...kids);
    // The policy's own fields: a menu for a row with values (with "the
    // base's default" when it has none of its own), text for the others.
    const own = sec("Kernel policy", "The base fills every default; the other switches override it.");
    for (const r of leaves(m0, "kernel-policy").filter((r) => applies(m0, r))) {
      const k = keyOf(r.path);
      let el;
      if (r.enum) {
        const opts = r.default ? menu(r) : [["", "the base's default"]].concat(menu(r));
        el = this.select(r.path, opts, (m) => getIn(m.scenario, r.path) || "", { aria: k });
      } else {
        el = this.text(r.path, (m) => getIn(m.scenario, r.path) || "", { size: 7, placeholder: r.absent || "", aria: k });
      }
      own.appendChild(this.field(r.path, k, el, r.doc + (r.range && !r.enum ? " (" + r.range + ")" : "")));
      if (r.path in m0.values) {
        own.appendChild(this.bind(h("p", { class: "hint" }),
          (m) => "effective: " + m.values[r.path] + (getIn(m.scenario, r.path) ? " (set by the scenario)" : " (the base's default)"), "textContent"));
      }
    }
    root.append(own,
      sec("Sched-domain flags (SD_*)", "Per domain level, bottom-up. A marked box differs from the base's default.", this.flagGrid()),
      sec("Balancer tunables", "Empty means the base's value (shown greyed).", this.tunableGrid()));
    // Features, one section per concept.
    const groups = [];
    for (const k of m0.schema.keys["<feature>"]) {
      if (!k.edit || !applies(m0, k)) continue;
      let g = groups.find((x) => x.name === k.group);
      if (!g) groups.push(g = { name: k.group, keys: [] });
      g.keys.push(k);
    }
    for (const g of groups) root.appendChild(sec(g.name || "Features", "", this.featureList(g.keys)));
  }

  // levelKey is the scenario's spelling of a level in the map at mapPath
  // (a file may say DIE for PKG).
  levelKey(mapPath, level) {
    return ((this.model.level_keys || {})[mapPath] || {})[level] || level;
  }

  flagGrid() {
    const levels = this.model.levels;
    const row = rowsIn(this.model, "domain-flags").find((r) => r.kind === "bool");
    const mapPath = rowsIn(this.model, "domain-flags")[0].path;
    const t = h("table", { class: "grid flags" },
      h("thead", {}, h("tr", {}, h("th", { text: "flag" }), levels.map((l) => h("th", { text: l })))));
    const body = h("tbody");
    for (const k of this.model.schema.keys["<flag>"].filter((k) => k.edit && applies(this.model, k))) {
      const flag = k.name;
      const tr = h("tr", {}, h("th", { class: "rowhead" }, h("code", { text: flag }), h("span", { class: "hint", text: k.doc })));
      for (const l of levels) {
        const path = concrete(row.path, this.levelKey(mapPath, l), flag);
        const at = concrete(row.path, l, flag); // values are by the level's own name
        const box = this.switchBox(path, (m) => m.values[at] === "true", (m) => m.base_values[at] === "true", flag + " at " + l);
        const cell = h("td", {}, this.fieldBox(path, box));
        this.bind(cell, (m) => (m.values[at] !== m.base_values[at] ? "changed" : ""), "className");
        tr.appendChild(cell);
      }
      body.appendChild(tr);
    }
    t.appendChild(body);
    return t;
  }

  tunableGrid() {
    const levels = this.model.levels;
    const mapPath = rowsIn(this.model, "balancer-tunables")[0].path;
    const t = h("table", { class: "grid tunables" },
      h("thead", {}, h("tr", {}, h("th", { text: "tunable" }), levels.map((l) => h("th", { text: l })))));
    const body = h("tbody");
    for (const r of leaves(this.model, "balancer-tunables")) {
      const key = keyOf(r.path);
      const tr = h("tr", {}, h("th", { class: "rowhead" }, h("code", { text: key }), h("span", { class: "hint", text: r.doc + " (" + r.range + ")" })));
      for (const l of levels) {
        const lk = this.levelKey(mapPath, l);
        const path = concrete(r.path, lk);
        const el = this.text(path, (m) => ((getIn(m.scenario, mapPath) || {})[lk] || {})[key], {
          size: 5, aria: key + " at " + l, placeholderOf: (m) => m.base_values[concrete(r.path, l)],
        });
        tr.appendChild(h("td", {}, this.fieldBox(path, el)));
      }
      body.appendChild(tr);
    }
    t.appendChild(body);
    return t;
  }

  featureList(keys) {
    const row = rowsIn(this.model, "feature-switches").find((r) => r.kind === "bool");
    const ul = h("ul", { class: "feature-list" });
    for (const k of keys) {
      const name = k.name;
      const path = concrete(row.path, name);
      const box = this.switchBox(path, (m) => m.values[path] === "true", (m) => m.base_values[path] === "true", name);
      const li = h("li", {}, this.fieldBox(path, h("label", { class: "feature" }, box, h("code", { text: name }), h("span", { class: "hint", text: k.doc }))));
      this.bind(li, (m) => (m.values[path] !== m.base_values[path] ? "changed" : ""), "className");
      ul.appendChild(li);
    }
    return ul;
  }
}
