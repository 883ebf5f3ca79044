// The scenario editor: presets, machine, tasks and policy. It reads the
// scenario and the resolved policy from schedplay.describe() and writes
// through the page API: set(path, value) for one field, loadScenario(json)
// for structural changes (adding or removing task groups and steps,
// renaming a group). Go validates every change; a rejected change leaves
// the running scenario alone and its problems are shown next to the field
// that caused them (and next to the field each problem's path names).
//
// Rendering: the editor is rebuilt when the scenario's structure changes
// (levels, task groups, steps, idle states); otherwise only the values are
// updated, and never the value of the field that has the focus.
"use strict";

import { h, clear, $ } from "./dom.js";
import * as P from "./policytext.js";
import { parseDuration, fmtDuration } from "./duration.js";

const STEP_KINDS = [
  ["run", "run"],
  ["sleep", "sleep"],
  ["timer", "timer"],
  ["wake", "wake"],
  ["wait", "wait"],
];
const STEP_HINTS = {
  run: "burn this much CPU time",
  sleep: "block for this long",
  timer: "block until the next multiple of this period",
  wake: "wake a task of this group",
  wait: "block until another task wakes this one",
};
const FANOUTS = [
  ["index", "same index"],
  ["all", "all of them"],
  ["one", "one, round-robin"],
  ["waker", "the waker (reply)"],
];
const DIMS = [
  ["nodes", "NUMA nodes"],
  ["sockets_per_node", "Sockets per node"],
  ["llcs_per_socket", "LLCs (L3) per socket"],
  ["clusters_per_llc", "Clusters (L2) per LLC"],
  ["cores_per_cluster", "Cores per cluster"],
  ["threads_per_core", "Threads per core (SMT)"],
];
const COSTS = [
  ["context_switch", "Context switch"],
  ["wakeup_ipi", "Remote wake-up (IPI)"],
  ["search_cpu", "Search cost per CPU examined"],
  ["search_group", "… per sched group examined"],
  ["search_domain", "… per sched domain visited"],
  ["balance_cpu", "Balancer cost per CPU read"],
];
const DISTANCES = ["same", "smt", "cluster", "llc", "package", "numa"];

export function stepKind(st) {
  for (const k of ["run", "sleep", "timer", "wake"]) if (st[k]) return k;
  return st.wait ? "wait" : "run";
}

function structureKey(m) {
  const s = m.scenario;
  const costs = s.machine.costs || {};
  return JSON.stringify([
    m.levels,
    s.tasks.map((t) => [t.name, t.count_of || "", t.program.map(stepKind)]),
    costs.idle_states ? "own" : "default", m.idle_states.length,
  ]);
}

export class Editor {
  constructor(api) {
    this.api = api;
    this.model = null;
    this.key = "";
    this.bindings = [];      // {el, get(model), prop}
    this.fields = new Map(); // scenario path -> .field element
    this.presetCards = new Map();
  }

  // refresh re-reads the scenario; cheap when nothing changed.
  refresh(force) {
    const m = this.api.describe();
    if (!m) return;
    if (!force && this.model && m.json === this.model.json) return;
    this.model = m;
    this.clearErrors();
    const key = structureKey(m);
    if (force || key !== this.key) {
      this.key = key;
      this.rebuild();
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

  // load replaces the whole scenario (an object) after a structural change.
  // Its problems are shown next to el only: their paths are those of the
  // rejected structure, not of the fields on screen.
  load(obj, el) {
    return this.result(this.api.loadScenario(JSON.stringify(obj)), el, false);
  }

  result(r, el, byPath) {
    if (r && r.ok) {
      this.clearErrors();
      this.refresh();
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
    for (const e of document.querySelectorAll("#editor .field-error")) {
      e.textContent = "";
      e.hidden = true;
    }
    for (const e of document.querySelectorAll("#editor .has-error")) e.classList.remove("has-error");
  }

  // showProblems writes each problem next to the field its path names, and
  // all of them next to the control that caused them.
  showProblems(r, el, byPath) {
    const problems = (r && r.problems && r.problems.length) ? r.problems : [{ path: "", problem: (r && r.error) || "rejected" }];
    const own = el ? el.closest(".field, .errbox") : null;
    const ownPath = el && el.dataset.path;
    const lines = [];
    for (const p of problems) {
      const f = p.path && byPath !== false ? this.fields.get(p.path) : null;
      if (f && f !== own) this.fieldError(f, p.problem);
      lines.push(p.path && p.path !== ownPath ? p.path + ": " + p.problem : p.problem);
    }
    if (own) this.fieldError(own, lines.join("\n"));
    else if (byPath === false || !problems.some((p) => this.fields.get(p.path))) {
      // Nothing to attach it to: the page's error line.
      const e = $("error");
      e.textContent = lines.join("\n");
      e.hidden = false;
    }
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

  bind(el, get, prop) {
    prop = prop || (el.type === "checkbox" ? "checked" : "value");
    this.bindings.push({ el, get, prop });
    this.updateOne(el);
    return el;
  }

  updateOne(el) {
    for (const b of this.bindings) {
      if (b.el !== el) continue;
      const v = b.get(this.model);
      if (b.prop === "checked") el.checked = !!v;
      else el[b.prop] = v === undefined || v === null ? "" : String(v);
    }
  }

  update() {
    const active = document.activeElement;
    for (const b of this.bindings) {
      if (b.el === active && b.prop === "value") continue;
      const v = b.get(this.model);
      if (b.prop === "checked") b.el.checked = !!v;
      else if (b.prop === "class") b.el.className = v;
      else b.el[b.prop] = v === undefined || v === null ? "" : String(v);
    }
  }

  // field wraps a labelled control; path registers it for error messages.
  field(path, label, control, hint, cls) {
    const f = h("div", { class: "field" + (cls ? " " + cls : "") },
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

  select(path, options, get, opts) {
    opts = opts || {};
    const el = h("select", { dataset: { path }, attrs: { "aria-label": opts.aria || path } },
      options.map(([v, label]) => h("option", { value: v, text: label })));
    el.addEventListener("change", () => {
      if (opts.write) opts.write(el.value, el);
      else this.set(path, el.value, el);
    });
    this.bind(el, get);
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
    const active = document.activeElement;
    const focus = active && active.dataset ? active.dataset.path : null;
    this.bindings = [];
    this.fields = new Map();
    this.buildScenario();
    this.buildMachine();
    this.buildTasks();
    this.buildPolicy();
    if (focus) {
      const again = document.querySelector('#editor [data-path="' + CSS.escape(focus) + '"]');
      if (again) again.focus();
    }
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
    const title = this.text("title", (m) => m.scenario.title, { maxLength: 200, aria: "title" });
    const desc = h("textarea", { rows: 5, spellcheck: true, dataset: { path: "description" }, attrs: { "aria-label": "description" } });
    desc.addEventListener("change", () => this.set("description", desc.value, desc));
    this.bind(desc, (m) => m.scenario.description || "");
    const dur = this.text("duration", (m) => m.scenario.duration, { size: 8, aria: "duration" });
    root.append(
      this.field("title", "Title", title),
      this.field("description", "Description", desc),
      this.field("duration", "Simulated time", dur, "how long a run lasts, e.g. 1s, 500ms (at most 600s)"),
    );
  }

  buildMachine() {
    const root = $("machine-fields");
    clear(root);
    const dims = h("div", { class: "dims" });
    for (const [k, label] of DIMS) {
      const el = this.text("machine." + k, (m) => m.scenario.machine[k], { size: 4, inputmode: "numeric", aria: label });
      dims.appendChild(this.field("machine." + k, label, el));
    }
    const summary = h("p", { class: "summary", attrs: { "aria-live": "polite" } });
    this.bind(summary, (m) => {
      const mc = m.scenario.machine;
      return DIMS.map(([k]) => mc[k]).join(" × ") + " = " + m.ncpu + " CPUs · sched domains: " + m.levels.join(", ");
    }, "textContent");
    const hz = this.select("machine.hz", [["100", "100"], ["250", "250"], ["300", "300"], ["1000", "1000"]],
      (m) => String(m.scenario.machine.hz), { aria: "HZ" });
    const numbering = this.select("machine.numbering", [
      ["linear", "linear: a core's threads are adjacent (cpu0, cpu1)"],
      ["x86", "x86: thread 0 of every core first, then thread 1"],
    ], (m) => m.scenario.machine.numbering, { aria: "CPU numbering" });
    root.append(
      h("h3", { text: "Topology" }), dims, this.fieldBox("machine", summary),
      h("h3", { text: "Tick and numbering" }),
      this.field("machine.hz", "HZ (scheduler ticks per second)", hz),
      this.field("machine.numbering", "CPU numbering", numbering),
      this.buildCosts(),
    );
  }

  // fieldBox is a field without a label: errors about path land there.
  fieldBox(path, ...children) {
    const f = h("div", { class: "field" }, children);
    this.fields.set(path, f);
    return f;
  }

  buildCosts() {
    const costs = (m) => m.scenario.machine.costs || {};
    const box = h("details", { class: "costs" }, h("summary", { text: "Cost model overrides" }),
      h("p", { class: "hint", text: "Empty means the simulator's default (shown greyed). Durations like 2us, 0s." }));
    for (const [k, label] of COSTS) {
      const path = "machine.costs." + k;
      box.appendChild(this.field(path, label,
        this.text(path, (m) => costs(m)[k], { size: 7, placeholderOf: (m) => m.cost_defaults[k], aria: label })));
    }
    const jit = "machine.costs.jitter_pct";
    box.appendChild(this.field(jit, "Run-time jitter ± %",
      this.text(jit, (m) => costs(m).jitter_pct, { size: 4, inputmode: "numeric", placeholderOf: (m) => String(m.cost_defaults.jitter_pct), aria: "jitter percent" })));

    const table = (name, title, keys) => {
      const t = h("table", { class: "grid" },
        h("thead", {}, h("tr", {}, h("th", { text: title }), keys.map((d) => h("th", { text: d })))));
      const row = h("tr", {}, h("th", { text: "cost" }));
      for (const d of keys) {
        const path = "machine.costs." + name + "." + d;
        const el = this.text(path, (m) => (costs(m)[name] || {})[d], { size: 5, placeholderOf: (m) => m.cost_defaults[name][d], aria: title + " " + d });
        row.appendChild(h("td", {}, this.fieldBox(path, el)));
      }
      t.appendChild(h("tbody", {}, row));
      return t;
    };
    box.append(
      h("h4", { text: "Cache refill after a migration, by distance" }),
      table("cache_cold", "moved to", DISTANCES.slice(1)),
      h("h4", { text: "Reading the waker's data, by distance" }),
      table("comm", "waker at", DISTANCES),
      this.buildIdleStates(),
    );
    return box;
  }

  buildIdleStates() {
    const path = "machine.costs.idle_states";
    const states = () => this.model.idle_states.map((s) => Object.assign({}, s));
    const write = (list, el) => this.set(path, JSON.stringify(list), el);
    const own = !!(this.model.scenario.machine.costs || {}).idle_states;
    const t = h("table", { class: "grid idle" },
      h("thead", {}, h("tr", {}, ["C-state", "entered after idle", "exit latency", ""].map((x) => h("th", { text: x })))));
    const body = h("tbody");
    this.model.idle_states.forEach((_, i) => {
      const cell = (k, size) => {
        const p = path + "[" + i + "]." + k;
        const el = this.text(p, (m) => (m.idle_states[i] || {})[k], {
          size, aria: "idle state " + i + " " + k,
          write: (v, el) => { const l = states(); l[i][k] = v; write(l, el); },
        });
        return h("td", {}, this.fieldBox(p, el));
      };
      const del = h("button", { type: "button", class: "small", text: "✕", title: "remove this C-state", attrs: { "aria-label": "remove idle state " + i } });
      del.addEventListener("click", () => { const l = states(); l.splice(i, 1); write(l, del); });
      body.appendChild(h("tr", {}, cell("name", 6), cell("after", 7), cell("exit_latency", 7), h("td", {}, h("div", { class: "errbox" }, del))));
    });
    t.appendChild(body);
    const add = h("button", { type: "button", text: "+ C-state" });
    add.addEventListener("click", () => {
      const l = states();
      const last = l[l.length - 1];
      const after = last ? (parseDuration(last.after) || 0) * 10 || 1000000 : 0;
      l.push({ name: "C" + l.length, after: fmtDuration(after), exit_latency: last ? last.exit_latency : "1us" });
      write(l, add);
    });
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

  buildTasks() {
    const root = $("task-fields");
    clear(root);
    const s = this.model.scenario;
    s.tasks.forEach((t, i) => root.appendChild(this.taskCard(t, i)));
    const add = h("button", { type: "button", class: "wide", text: "+ Task group" });
    add.addEventListener("click", () => {
      const sc = this.scenario();
      const names = new Set(sc.tasks.map((x) => x.name));
      let n = sc.tasks.length, name;
      do { name = "task" + n++; } while (names.has(name));
      sc.tasks.push({ name, count: 1, program: [{ run: "2ms" }, { timer: "10ms" }] });
      this.load(sc, add);
    });
    root.appendChild(h("div", { class: "errbox" }, add));
  }

  taskCard(t, i) {
    const base = "tasks[" + i + "]";
    const task = (m) => m.scenario.tasks[i] || {};
    const names = this.model.scenario.tasks.map((x) => x.name);

    const name = this.text(base + ".name", (m) => task(m).name, {
      cls: "task-name", size: 12, aria: "task group " + i + " name",
      write: (v, el) => this.rename(i, v, el),
    });
    const count = this.text(base + ".count", (m) => task(m).count, { size: 4, inputmode: "numeric", aria: t.name + " count" });
    count.disabled = !!t.count_of;
    const countOf = this.select(base + ".count_of",
      [["", "its own"]].concat(names.filter((n, j) => j !== i).map((n) => [n, "as many as " + n])),
      (m) => task(m).count_of || "", { aria: t.name + " count of" });
    const remove = h("button", { type: "button", class: "small", text: "Remove", title: "remove this task group" });
    remove.addEventListener("click", () => {
      const sc = this.scenario();
      sc.tasks.splice(i, 1);
      this.load(sc, remove);
    });

    const fields = h("div", { class: "task-fields" },
      this.field(base + ".count", "Count", h("span", { class: "count" }, count, countOf)),
      this.field(base + ".nice", "Nice", this.text(base + ".nice", (m) => task(m).nice || 0, { size: 4, inputmode: "numeric", aria: t.name + " nice" })),
      this.field(base + ".cpus", "CPUs", this.text(base + ".cpus", (m) => task(m).cpus || "", { size: 9, placeholder: "all", aria: t.name + " CPUs" })),
      this.field(base + ".start", "Start", this.text(base + ".start", (m) => task(m).start || "", { size: 6, placeholder: "0s", aria: t.name + " start" })),
      this.field(base + ".loop", "Loops", this.text(base + ".loop", (m) => task(m).loop || "", { size: 6, inputmode: "numeric", placeholder: "forever", aria: t.name + " loops" })),
    );
    this.fields.set(base + ".count_of", this.fields.get(base + ".count"));

    const steps = h("ol", { class: "steps" });
    t.program.forEach((st, j) => steps.appendChild(this.stepRow(i, j, st, names)));
    const addStep = h("button", { type: "button", class: "small", text: "+ Step" });
    addStep.addEventListener("click", () => {
      const sc = this.scenario();
      sc.tasks[i].program.push({ sleep: "1ms" });
      this.load(sc, addStep);
    });

    return h("section", { class: "task", dataset: { task: i } },
      h("div", { class: "task-head" }, this.field(base + ".name", "Group", name), h("div", { class: "errbox" }, remove)),
      fields,
      this.dutyCycle(i, t),
      h("h4", { text: "Program (one pass = one op)" }),
      this.fieldBox(base + ".program", steps),
      h("div", { class: "errbox" }, addStep));
  }

  // rename changes a group's name and every reference to it.
  rename(i, name, el) {
    const sc = this.scenario();
    const old = sc.tasks[i].name;
    if (name === old) return;
    sc.tasks[i].name = name;
    for (const t of sc.tasks) {
      if (t.count_of === old) t.count_of = name;
      for (const st of t.program) if (st.wake === old) st.wake = name;
    }
    this.load(sc, el);
  }

  // dutyCycle is the shortcut for the common periodic task: run pct% of
  // every period (program [run, timer]).
  dutyCycle(i, t) {
    const cur = t.program.length === 2 && t.program[0].run && t.program[1].timer ? t.program : null;
    const curPct = () => {
      if (!cur) return "";
      const r = parseDuration(cur[0].run), p = parseDuration(cur[1].timer);
      return r && p ? String(Math.round((r / p) * 1000) / 10) : "";
    };
    const pct = h("input", { type: "text", size: 4, value: curPct(), attrs: { inputmode: "decimal", "aria-label": t.name + " duty cycle percent" }, dataset: { role: "duty-pct" } });
    const period = h("input", { type: "text", size: 6, value: cur ? cur[1].timer : "10ms", attrs: { "aria-label": t.name + " duty cycle period" }, dataset: { role: "duty-period" } });
    const apply = h("button", { type: "button", class: "small", text: "Set program" });
    const box = h("div", { class: "field duty" },
      h("span", { class: "label", text: "Duty cycle" }), pct, h("span", { text: "% of every" }), period, apply);
    apply.addEventListener("click", () => {
      const pc = parseFloat(pct.value);
      const per = parseDuration(period.value.trim());
      if (!(pc > 0 && pc <= 100)) return this.fieldError(box, "the duty cycle is a percentage: more than 0, at most 100");
      if (!per) return this.fieldError(box, JSON.stringify(period.value.trim()) + " is not a duration (for example 10ms)");
      const run = Math.max(1000, Math.round((per * pc) / 100 / 1000) * 1000); // whole microseconds
      this.set("tasks[" + i + "].program", JSON.stringify([{ run: fmtDuration(run) }, { timer: fmtDuration(per) }]), apply);
    });
    return box;
  }

  stepRow(i, j, st, names) {
    const base = "tasks[" + i + "].program[" + j + "]";
    const step = (m) => ((m.scenario.tasks[i] || {}).program || [])[j] || {};
    const kind = stepKind(st);
    const kindSel = this.select(base, STEP_KINDS, (m) => stepKind(step(m)), {
      aria: "step " + (j + 1) + " kind",
      write: (k, el) => {
        const cur = step(this.model);
        const d = cur.run || cur.sleep || cur.timer || "1ms";
        const v = { run: d, sleep: d, timer: d, wake: names[0], wait: "true" }[k];
        this.set(base + "." + k, v, el);
      },
    });
    kindSel.title = STEP_HINTS[kind];
    const parts = [kindSel];
    if (kind === "run" || kind === "sleep" || kind === "timer") {
      parts.push(this.text(base + "." + kind, (m) => step(m)[kind], { size: 7, aria: "step " + (j + 1) + " " + kind }));
    } else if (kind === "wake") {
      parts.push(
        this.select(base + ".wake", names.map((n) => [n, n]), (m) => step(m).wake, { aria: "step " + (j + 1) + " wakes" }),
        this.select(base + ".fanout", FANOUTS, (m) => step(m).fanout || "index", { aria: "step " + (j + 1) + " fanout: which instances" }),
        h("label", { class: "inline", title: "WF_SYNC: the waker is about to sleep" }, this.syncBox(base, step), "sync"),
      );
    }
    const move = (d, label, text) => {
      const b = h("button", { type: "button", class: "small", text, title: label, attrs: { "aria-label": label + " (step " + (j + 1) + ")" } });
      b.addEventListener("click", () => {
        const sc = this.scenario();
        const prog = sc.tasks[i].program;
        if (d === 0) prog.splice(j, 1);
        else {
          const k = j + d;
          if (k < 0 || k >= prog.length) return;
          [prog[j], prog[k]] = [prog[k], prog[j]];
        }
        this.load(sc, b);
      });
      return b;
    };
    const main = h("div", { class: "field step-main" }, parts);
    const li = h("li", { class: "step" }, h("div", { class: "step-row" }, main,
      h("div", { class: "step-tools errbox" }, move(-1, "move up", "↑"), move(1, "move down", "↓"), move(0, "remove", "✕"))));
    this.fields.set(base, main);
    for (const k of ["run", "sleep", "timer", "wake", "sync", "fanout", "wait"]) this.fields.set(base + "." + k, main);
    return li;
  }

  syncBox(base, step) {
    const el = h("input", { type: "checkbox", dataset: { path: base + ".sync" }, attrs: { "aria-label": "sync wake-up (WF_SYNC)" } });
    el.addEventListener("change", () => this.set(base + ".sync", String(el.checked), el));
    this.bind(el, (m) => step(m).sync);
    return el;
  }

  // ---- policy ------------------------------------------------------------

  buildPolicy() {
    const root = $("policy-fields");
    clear(root);
    const pol = (m) => m.scenario.policy;
    const withDefault = (list, key) => [["", "the base's default"]].concat(list).map(([v, label]) => [v, label]);
    const baseNote = (key) => (m) => "effective: " + m.effective[key] + (pol(m)[key] ? " (set by the scenario)" : " (the base's default)");

    const era = this.select("policy.base", P.BASES, (m) => pol(m).base, { aria: "base era" });
    const lm = this.select("policy.load_metric", withDefault(P.LOAD_METRICS), (m) => pol(m).load_metric || "", { aria: "load metric" });
    const ntl = this.select("policy.new_task_load", withDefault(P.NEW_TASK_LOADS), (m) => pol(m).new_task_load || "", { aria: "new task load" });
    const sis = this.select("policy.select_idle_sibling", withDefault(P.SIS_VARIANTS), (m) => pol(m).select_idle_sibling || "", { aria: "select_idle_sibling" });
    const note = (key) => this.bind(h("p", { class: "hint" }), baseNote(key), "textContent");

    root.append(
      h("section", { class: "concept" },
        h("h3", { text: "Kernel era" }),
        this.field("policy.base", "Base", era, "fills every default below: scheduler class, metrics, flags, tunables")),
      h("section", { class: "concept" },
        h("h3", { text: "Load tracking" }),
        this.field("policy.load_metric", "Load metric", lm, "what the balancer and wake_affine() compare as a CPU's load"),
        note("load_metric"),
        this.field("policy.new_task_load", "New task load", ntl, "the load a forked task starts with"),
        note("new_task_load")),
      h("section", { class: "concept" },
        h("h3", { text: "Wake-up placement" }),
        this.field("policy.select_idle_sibling", "select_idle_sibling()", sis, "where a woken task goes once wake_affine() chose a target"),
        note("select_idle_sibling"),
        this.featureList(P.FEATURE_GROUPS[0][1])),
      h("section", { class: "concept" },
        h("h3", { text: "Sched-domain flags (SD_*)" }),
        h("p", { class: "hint", text: "Per domain level, bottom-up. A marked box differs from the base's default." }),
        this.flagGrid()),
      h("section", { class: "concept" },
        h("h3", { text: "Balancer tunables" }),
        h("p", { class: "hint", text: "Empty means the base's value (shown greyed)." }),
        this.tunableGrid(),
        this.field("policy.migration_cost", "migration_cost",
          this.text("policy.migration_cost", (m) => pol(m).migration_cost || "", { size: 7, placeholder: "500us", aria: "migration_cost" }),
          "a task that ran more recently than this is cache-hot; 0s: never"),
        this.field("policy.base_slice", "base_slice (EEVDF)",
          this.text("policy.base_slice", (m) => pol(m).base_slice || "", { size: 7, placeholder: "era default", aria: "base_slice" }),
          "the slice a task runs before EEVDF picks again (100us…1s)")),
      h("section", { class: "concept" },
        h("h3", { text: "Load balancing" }),
        this.featureList(P.FEATURE_GROUPS[1][1])),
      h("section", { class: "concept" },
        h("h3", { text: "Run queue" }),
        this.featureList(P.FEATURE_GROUPS[2][1])),
    );
  }

  // levelKey is the scenario's spelling of a level in sd_flags/tunables
  // (a file may say DIE for PKG).
  levelKey(section, level) {
    const o = this.model.scenario.policy[section] || {};
    return level === "PKG" && o.DIE && !o.PKG ? "DIE" : level;
  }

  flagGrid() {
    const levels = this.model.levels;
    const t = h("table", { class: "grid flags" },
      h("thead", {}, h("tr", {}, h("th", { text: "flag" }), levels.map((l) => h("th", { text: l })))));
    const body = h("tbody");
    for (const [flag, expl] of P.FLAGS) {
      const row = h("tr", {}, h("th", { class: "rowhead" }, h("code", { text: flag }), h("span", { class: "hint", text: expl })));
      for (const l of levels) {
        const path = "policy.sd_flags." + this.levelKey("sd_flags", l) + "." + flag;
        const box = this.switchBox(path, (m) => m.effective.sd_flags[l][flag], (m) => m.base.sd_flags[l][flag], flag + " at " + l);
        const cell = h("td", {}, this.fieldBox(path, box));
        this.bind(cell, (m) => (m.effective.sd_flags[l][flag] !== m.base.sd_flags[l][flag] ? "changed" : ""), "className");
        row.appendChild(cell);
      }
      body.appendChild(row);
    }
    t.appendChild(body);
    return t;
  }

  tunableGrid() {
    const levels = this.model.levels;
    const t = h("table", { class: "grid tunables" },
      h("thead", {}, h("tr", {}, h("th", { text: "tunable" }), levels.map((l) => h("th", { text: l })))));
    const body = h("tbody");
    for (const [key, expl, range] of P.TUNABLES) {
      const row = h("tr", {}, h("th", { class: "rowhead" }, h("code", { text: key }), h("span", { class: "hint", text: expl + " (" + range + ")" })));
      for (const l of levels) {
        const lk = this.levelKey("tunables", l);
        const path = "policy.tunables." + lk + "." + key;
        const el = this.text(path, (m) => ((m.scenario.policy.tunables || {})[lk] || {})[key], {
          size: 5, aria: key + " at " + l, placeholderOf: (m) => String(m.base.tunables[l][key]),
        });
        row.appendChild(h("td", {}, this.fieldBox(path, el)));
      }
      body.appendChild(row);
    }
    t.appendChild(body);
    return t;
  }

  featureList(list) {
    const ul = h("ul", { class: "features" });
    for (const [name, expl] of list) {
      const path = "policy.features." + name;
      const box = this.switchBox(path, (m) => m.effective.features[name], (m) => m.base.features[name], name);
      const li = h("li", {}, this.fieldBox(path, h("label", { class: "feature" }, box, h("code", { text: name }), h("span", { class: "hint", text: expl }))));
      this.bind(li, (m) => (m.effective.features[name] !== m.base.features[name] ? "changed" : ""), "className");
      ul.appendChild(li);
    }
    return ul;
  }
}
