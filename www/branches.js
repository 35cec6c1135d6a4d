//! `<tao-branches>`: an original trajectory and a fork of it, both visible, their answers compared.
//!
//! It holds two `<tao-trajectory>` views (`hold(original, fork)`): side by side when the window
//! is wide (at least 1100 px), as tabs when it is narrow (a real ARIA tablist: arrow keys, Home
//! and End move between the tabs). One branch is *selected*: the shown tab, or, side by side, the
//! branch last clicked or focused. Export and the stats bar follow the selected branch.
//!
//! It owns no run and no trajectory. It tells the page's `fork.js` what the reader does with
//! bubbling events: `tao:branch` `{ branch }` (the selection changed: "original" or "fork") and
//! `tao:keep` `{ branch }` (Keep original / Keep fork: back to one trajectory). Answers reach the
//! summary line with `textContent` only: they are model text. Registered in `elements.js`.

import { t, addWords } from "./i18n.js";

// The fork's branches' words in English, added to the page's dictionary when it first loads, so the
// first load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese
// loads).
addWords({
  en: {
    "branches.label": "Branches",
    "branches.original": "Original",
    "branches.fork": "Fork",
    "branches.colon": ": ",
    "branches.forkFrom": "Fork from step {n}",
    "branches.keepOriginal": "Keep original",
    "branches.keepFork": "Keep fork",
    "branches.noAnswer": "no answer",
    "branches.same": "the same answer",
    "branches.different": "different answers",
    "branches.selected": "Export and the stats show: {branch}",
  },
});

/** Side by side from this width on; tabs below it. */
const WIDE = "(min-width: 1100px)";
const BRANCHES = ["original", "fork"];

let ids = 0;

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = String(text);
  return node;
}

export class TaoBranches extends HTMLElement {
  #built = false;
  #selected = "fork";
  /** The step the fork starts from (its title says so). */
  #from = null;
  /** What the summary compares: per branch, `{ answer, running }`. */
  #outcome = { original: {}, fork: {} };
  #wide = window.matchMedia(WIDE);
  #onWidth = () => this.#layout();
  #parts = {};

  connectedCallback() {
    if (!this.#built) this.#build();
    this.#wide.addEventListener("change", this.#onWidth);
    this.#layout();
  }

  disconnectedCallback() {
    this.#wide.removeEventListener("change", this.#onWidth);
  }

  #build() {
    this.#built = true;
    const id = `tao-branches-${++ids}`;
    const bar = el("div", { class: "branches-bar" });
    const summary = el("p", { class: "branches-summary", role: "status" });
    const selectedNote = el("p", { class: "branches-selected" });
    const keep = el("p", { class: "branches-keep" });
    const keepButtons = {};
    for (const branch of BRANCHES) {
      const b = el("button", { type: "button", class: "quiet", "data-keep": branch });
      b.addEventListener("click", () => this.#emit("tao:keep", { branch }));
      keepButtons[branch] = b;
      keep.append(b);
    }
    bar.append(summary, selectedNote, keep);

    const tablist = el("div", { class: "branches-tabs", role: "tablist" });
    const panels = el("div", { class: "branches-panels" });
    const tabs = {};
    const sections = {};
    const titles = {};
    for (const branch of BRANCHES) {
      const tab = el("button", { type: "button", role: "tab", id: `${id}-tab-${branch}`, "aria-controls": `${id}-${branch}`, "data-branch": branch });
      tab.addEventListener("click", () => this.select(branch));
      tabs[branch] = tab;
      tablist.append(tab);
      const section = el("section", { class: "branch", id: `${id}-${branch}`, "data-branch": branch });
      const title = el("h2", { class: "branch-title" });
      section.append(title);
      // Side by side, working in a branch selects it (in tabs, the tab does).
      const pick = () => this.dataset.layout === "split" && this.select(branch);
      section.addEventListener("focusin", pick);
      section.addEventListener("pointerdown", pick);
      sections[branch] = section;
      titles[branch] = title;
      panels.append(section);
    }
    tablist.addEventListener("keydown", (e) => this.#key(e));
    this.append(bar, tablist, panels);
    this.#parts = { summary, selectedNote, keepButtons, tablist, tabs, sections, titles };
    this.refresh();
  }

  /** Puts the two `<tao-trajectory>` views in their places (moving them here). */
  hold(original, fork) {
    const { sections } = this.#parts;
    for (const [branch, view] of [["original", original], ["fork", fork]]) {
      const old = sections[branch].querySelector("tao-trajectory");
      if (old !== view) old?.remove();
      if (view.parentNode !== sections[branch]) sections[branch].append(view);
    }
  }

  /** The view of a branch ("original" or "fork"). */
  view(branch) {
    return this.#parts.sections?.[branch]?.querySelector("tao-trajectory") ?? null;
  }

  /** The selected branch: "original" or "fork". */
  get selected() {
    return this.#selected;
  }

  /** Selects a branch (the tab shown when narrow) and says so with `tao:branch`. */
  select(branch, { focus = false } = {}) {
    if (!BRANCHES.includes(branch)) return;
    const changed = branch !== this.#selected;
    this.#selected = branch;
    this.#layout();
    if (focus) this.#parts.tabs[branch].focus();
    if (changed) this.#emit("tao:branch", { branch });
  }

  /** The fork starts from step `index` (its title says "Fork from step n"). */
  setFrom(index) {
    this.#from = index;
    this.refresh();
  }

  /**
   * What a branch ended with, for the summary: `{ answer }` (null: no answer, with `reason` the
   * stop reason) or `{ running: true }`.
   */
  setOutcome(branch, outcome) {
    this.#outcome[branch] = outcome ?? {};
    this.refresh();
  }

  /** Keep buttons are off while the fork runs. */
  setRunning(running) {
    for (const b of Object.values(this.#parts.keepButtons ?? {})) b.disabled = running;
  }

  /** Redraws the words (also after a language change). */
  refresh() {
    if (!this.#built) return;
    const { summary, selectedNote, keepButtons, tablist, tabs, titles } = this.#parts;
    const name = (branch) => (branch === "original" ? t("branches.original") : t("branches.forkFrom").replace("{n}", this.#from ?? "?"));
    for (const branch of BRANCHES) {
      tabs[branch].textContent = name(branch);
      titles[branch].textContent = name(branch);
    }
    tablist.setAttribute("aria-label", t("branches.label"));
    keepButtons.original.textContent = t("branches.keepOriginal");
    keepButtons.fork.textContent = t("branches.keepFork");
    selectedNote.textContent = t("branches.selected").replace("{branch}", name(this.#selected));

    // "Original: Ulm · Fork: Munich — different answers"
    const parts = [];
    for (const branch of BRANCHES) {
      const outcome = this.#outcome[branch];
      const item = el("span", { class: "branches-answer", "data-answer": branch });
      item.append(el("span", { class: "branches-name" }, `${t(branch === "original" ? "branches.original" : "branches.fork")}${t("branches.colon")}`));
      let text;
      if (outcome.running) text = t("reason.running");
      else if (typeof outcome.answer === "string") text = outcome.answer;
      else text = outcome.reason ? `${t("branches.noAnswer")} (${t("reason." + outcome.reason)})` : t("branches.noAnswer");
      item.append(el("span", { class: "branches-text" }, text));
      parts.push(item);
    }
    const [a, b] = [this.#outcome.original, this.#outcome.fork];
    const verdict = !a.running && !b.running && typeof a.answer === "string" && typeof b.answer === "string"
      ? a.answer.trim() === b.answer.trim() ? t("branches.same") : t("branches.different")
      : "";
    summary.replaceChildren(parts[0], el("span", { class: "branches-sep", "aria-hidden": "true" }, " · "), parts[1]);
    if (verdict) summary.append(el("span", { class: "branches-verdict" }, ` — ${verdict}`));
  }

  /** Side by side or tabs, by the window's width; the ARIA roles follow. */
  #layout() {
    if (!this.#built) return;
    const split = this.#wide.matches;
    this.dataset.layout = split ? "split" : "tabs";
    const { tablist, tabs, sections } = this.#parts;
    tablist.hidden = split;
    for (const branch of BRANCHES) {
      const selected = branch === this.#selected;
      tabs[branch].setAttribute("aria-selected", String(selected));
      tabs[branch].tabIndex = selected ? 0 : -1;
      const section = sections[branch];
      section.toggleAttribute("data-selected", selected);
      if (split) {
        section.removeAttribute("role");
        section.removeAttribute("aria-labelledby");
        section.hidden = false;
      } else {
        section.setAttribute("role", "tabpanel");
        section.setAttribute("aria-labelledby", tabs[branch].id);
        section.hidden = !selected;
      }
    }
    this.refresh();
  }

  /** The tablist's keys: ←/→ (wrapping), Home and End select and focus a tab. */
  #key(e) {
    const at = BRANCHES.indexOf(e.target.closest?.('[role="tab"]')?.dataset.branch ?? this.#selected);
    const to = {
      ArrowRight: (at + 1) % BRANCHES.length,
      ArrowLeft: (at - 1 + BRANCHES.length) % BRANCHES.length,
      Home: 0,
      End: BRANCHES.length - 1,
    }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.select(BRANCHES[to], { focus: true });
  }

  #emit(name, detail) {
    this.dispatchEvent(new CustomEvent(name, { bubbles: true, detail }));
  }
}
