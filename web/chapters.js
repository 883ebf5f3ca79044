// Chapters: the demo script of the link's (or the preset's) view. A bar
// under the title shows the chapter's caption (large in talk mode), its
// number, and previous / next buttons; PageDown and PageUp (what a
// presentation clicker sends) walk the chapters too (the Go side takes the
// keys). The scenario pane gets a "Chapters" section: the list (click one
// to go there), and a caption field with a button that records the current
// state as a new chapter. The theme button (key L) switches between the
// dark theme and the light one for projectors.
// Everything shown is set with textContent, never as HTML.
"use strict";

import { setAttr, setText } from "./dom.js";

const POLL_MS = 200;

function el(tag, props = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

export class Chapters {
  constructor(api) {
    this.api = api;
    this.shown = "";
    this.build();
    this.poll();
  }

  build() {
    const bar = el("div", { id: "chapter-bar", hidden: "" });
    this.prev = el("button", { id: "chapter-prev", type: "button", title: "previous chapter (PageUp)" }, "◀");
    this.count = el("span", { id: "chapter-count" });
    this.caption = el("p", { id: "chapter-caption", "aria-live": "polite" });
    this.does = el("p", { id: "chapter-does" });
    this.next = el("button", { id: "chapter-next", type: "button", title: "next chapter (PageDown)" }, "▶");
    const text = el("div", { class: "chapter-text" });
    text.append(this.caption, this.does);
    bar.append(this.prev, this.count, text, this.next);
    this.prev.addEventListener("click", () => this.go(() => this.api.prevChapter()));
    this.next.addEventListener("click", () => this.go(() => this.api.nextChapter()));
    const top = document.getElementById("top") || document.body;
    const strip = document.getElementById("talk-strip");
    if (strip && strip.parentNode === top) strip.after(bar);
    else top.appendChild(bar);
    this.bar = bar;

    // The theme button, beside talk mode.
    const actions = document.getElementById("top-actions");
    this.themeBtn = el("button", { id: "theme-toggle", type: "button", "aria-pressed": "false", title: "light theme for projectors (key L)" }, "Light (L)");
    this.themeBtn.addEventListener("click", () => {
      this.api.lightTheme(!this.api.lightTheme());
      this.refresh();
    });
    if (actions) actions.insertBefore(this.themeBtn, document.getElementById("share-status"));

    // The editor's chapters section.
    const pane = document.getElementById("pane-scenario");
    if (pane) {
      const sec = el("section", { id: "chapters-editor", "aria-label": "demo script" });
      sec.appendChild(el("h2", {}, "Chapters"));
      sec.appendChild(el("p", { class: "hint" }, "A demo script that travels in the link (Copy link with the view): each chapter a caption and the state to show. PageDown / PageUp walk it."));
      this.list = el("ol", { id: "chapter-list" });
      sec.appendChild(this.list);
      const row = el("div", { class: "row" });
      const lab = el("label", { for: "chapter-new" }, "Caption");
      this.input = el("input", { id: "chapter-new", type: "text", maxlength: "400", spellcheck: "true", autocomplete: "off" });
      const rec = el("button", { id: "chapter-record", type: "button", title: "the field changes since the script's scenario, A/B, the speed and the current time" }, "Record the current state as a chapter");
      rec.addEventListener("click", () => {
        const r = this.api.recordChapter(this.input.value);
        this.status.textContent = r.ok ? "Recorded as chapter " + r.current + "." : r.error;
        if (r.ok) this.input.value = "";
        this.refresh();
      });
      row.append(lab, this.input);
      this.status = el("p", { id: "chapter-status", class: "hint", "aria-live": "polite" });
      sec.append(row, rec, this.status);
      pane.appendChild(sec);
    }
  }

  go(f) {
    const r = f();
    if (r && !r.ok && this.status) this.status.textContent = r.error;
    this.refresh();
  }

  refresh() {
    const light = this.api.lightTheme && this.api.lightTheme();
    document.documentElement.classList.toggle("projector", !!light);
    setAttr(this.themeBtn, "aria-pressed", light ? "true" : "false");
    setText(this.themeBtn, light ? "Dark (L)" : "Light (L)");
    const ci = this.api.chapters ? this.api.chapters() : null;
    if (!ci) return;
    const n = ci.captions.length;
    this.bar.hidden = n === 0;
    const key = JSON.stringify(ci);
    if (key === this.shown) return;
    this.shown = key;
    this.count.textContent = ci.current > 0 ? ci.current + " / " + n : "– / " + n;
    this.caption.textContent = ci.current > 0 ? ci.caption : "Chapters: PageDown or ▶ for the first";
    this.does.textContent = ci.does || "";
    this.prev.disabled = ci.current <= 1;
    this.next.disabled = ci.current >= n;
    if (this.list) {
      this.list.replaceChildren();
      ci.captions.forEach((c, i) => {
        const li = el("li");
        const b = el("button", { type: "button", class: "chapter-go" + (i + 1 === ci.current ? " current" : "") }, c);
        b.addEventListener("click", () => this.go(() => this.api.chapter(i + 1)));
        li.appendChild(b);
        this.list.appendChild(li);
      });
    }
  }

  poll() {
    const tick = () => {
      if (!document.hidden) this.refresh();
      setTimeout(tick, POLL_MS);
    };
    tick();
  }
}

function start() {
  const a = window.schedplay;
  if (a && a.chapters && a.lightTheme) {
    window.schedplayChapters = new Chapters(a);
  } else {
    setTimeout(start, 50);
  }
}
start();
