//! `<tao-controls>`: the settings form (scenario, task, format, language, max steps, speed, the
//! budgets and memory of a long run, and the model: provider, base URL, model name, key, max
//! tokens, the two timeouts) and the buttons
//! (Run, Step, Pause, Resume, Stop, Export, Import, Share, Test connection).
//!
//! It owns no agent. It turns clicks into bubbling `CustomEvent`s that the page's parts (`run.js`,
//! `share.js`, …, installed by `main.js`) listen for:
//!
//! | event            | detail                                  |
//! |------------------|-----------------------------------------|
//! | `tao:run`        | the settings (`settings()`)             |
//! | `tao:step`       | the settings                            |
//! | `tao:pause`      | —                                       |
//! | `tao:resume`     | —                                       |
//! | `tao:stop`       | —                                       |
//! | `tao:export`     | —                                       |
//! | `tao:import`     | `{ name, text }` of the chosen file     |
//! | `tao:share`      | the settings                            |
//! | `tao:scenario`   | `{ name }` of the scenario just chosen  |
//! | `tao:lang`       | `{ lang }` just chosen (its words loaded) |
//! | `tao:provider`   | `{ provider }` just chosen              |
//! | `tao:test`       | the settings                            |
//! | `tao:key`        | `{ provider, apiKey, remember }` edited |
//!
//! The form's markup lives in `index.html` (it works as plain HTML before any script runs);
//! this class only wires it. Registered in `elements.js`.

import { LANGS, loadLang } from "./i18n.js";

export class TaoControls extends HTMLElement {
  #wired = false;

  /**
   * What the page loads with a language's words before `tao:lang` is sent, `(lang) => Promise`
   * (the demo page's scenario list: `scenarios.js` sets it), so the parts redraw with it there.
   */
  loadsWithLang = () => Promise.resolve();

  connectedCallback() {
    if (this.#wired) return;
    this.#wired = true;
    const on = (selector, type, fn) => this.#field(selector).addEventListener(type, fn);
    const emit = (name, detail) => this.dispatchEvent(new CustomEvent(name, { bubbles: true, detail }));

    this.#field("form").addEventListener("submit", (e) => {
      e.preventDefault();
      // In step-by-step mode the form's own button (and Ctrl+Enter) takes one step.
      emit(this.settings().stepMode ? "tao:step" : "tao:run", this.settings());
    });
    on('[data-action="step"]', "click", () => emit("tao:step", this.settings()));
    on('[data-action="pause"]', "click", () => emit("tao:pause"));
    on('[data-action="resume"]', "click", () => emit("tao:resume"));
    on("[data-step-mode]", "change", () => this.#showMode());
    on('[name="task"]', "keydown", (e) => {
      // Ctrl/⌘ + Enter runs, like most chat boxes.
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.#field("form").requestSubmit();
      }
    });
    on('[data-action="stop"]', "click", () => emit("tao:stop"));
    on('[data-action="export"]', "click", () => emit("tao:export"));
    on('[data-action="share"]', "click", () => emit("tao:share", this.settings()));
    on('[data-action="import"]', "click", () => this.#field("input[data-import-file]").click());
    on("input[data-import-file]", "change", async (e) => {
      const file = e.target.files?.[0];
      e.target.value = ""; // choosing the same file again must fire `change` again
      if (!file) return;
      emit("tao:import", { name: file.name, text: await file.text() });
    });
    on('[name="scenario"]', "change", (e) => emit("tao:scenario", { name: e.target.value }));
    // The parts redraw their words when they hear it: the language's words, and what the page
    // loads with them, come first (fetched as soon as the menu is touched, so the switch is
    // usually instant). Without the words, the page stays in English.
    const load = (lang) => Promise.allSettled([loadLang(lang), this.loadsWithLang(lang)]);
    for (const type of ["focus", "pointerdown"]) on('[name="lang"]', type, () => LANGS.forEach((lang) => load(lang)));
    on('[name="lang"]', "change", async (e) => {
      const lang = e.target.value;
      await load(lang);
      emit("tao:lang", { lang });
    });
    on('[name="provider"]', "change", (e) => {
      this.#showProvider();
      emit("tao:provider", { provider: e.target.value });
    });
    on('[data-action="test"]', "click", () => emit("tao:test", this.settings()));
    const key = () => {
      const s = this.settings();
      this.#field("[data-remember-warning]").hidden = !s.remember;
      emit("tao:key", { provider: s.provider, apiKey: s.apiKey, remember: s.remember });
    };
    on('[name="apiKey"]', "input", key);
    on("[data-remember]", "change", key);
    this.#showProvider();
  }

  /** Shows the provider's fields only when a provider other than the scripted model is chosen. */
  #showProvider() {
    this.#field("[data-model-settings]").dataset.provider = this.#field('[name="provider"]').value;
  }

  #field(selector) {
    const node = this.querySelector(selector);
    if (!node) throw new Error(`tao-controls: missing ${selector} in the markup`);
    return node;
  }

  /** The current settings, as `new Agent(…)` and the share link want them. */
  settings() {
    const value = (name) => this.#field(`[name="${name}"]`).value;
    return {
      scenario: value("scenario"),
      task: value("task"),
      format: value("format"),
      lang: value("lang"),
      maxSteps: Number(value("maxSteps")),
      delayMs: Number(value("delayMs")),
      provider: value("provider"),
      baseUrl: value("baseUrl").trim(),
      model: value("model").trim(),
      apiKey: value("apiKey").trim(),
      maxTokens: number(value("maxTokens")) || undefined, // 0 or empty: the provider's default
      // Shown in seconds, sent in milliseconds; empty is the core's default, 0 no limit.
      firstByteTimeoutMs: number(value("firstByteTimeout"), 1000),
      idleTimeoutMs: number(value("idleTimeout"), 1000),
      // Empty or 0: off (sent as 0, so a scenario's own memory setting is off too when cleared).
      tokenBudget: number(value("tokenBudget")) ?? 0,
      timeBudgetMs: number(value("timeBudget"), 1000) ?? 0,
      memoryTokens: number(value("memoryTokens")) ?? 0,
      reflectEvery: number(value("reflectEvery")) ?? 0,
      remember: this.#field("[data-remember]").checked,
      stepMode: this.#field("[data-step-mode]").checked,
    };
  }

  /** In step-by-step mode, Step is the button that stands out (and the one Enter presses). */
  #showMode() {
    const step = this.#field("[data-step-mode]").checked;
    this.#field('[data-action="run"]').classList.toggle("primary", !step);
    this.#field('[data-action="step"]').classList.toggle("primary", step);
  }

  /** Sets any of the settings' fields (unknown select values are ignored). */
  apply(settings) {
    for (const [name, v] of Object.entries(settings)) {
      if (v === undefined || v === null) continue;
      const node = this.querySelector(`[name="${name}"]`);
      if (!node) continue;
      if (node.tagName === "SELECT" && ![...node.options].some((o) => o.value === String(v))) continue;
      if (node.type === "checkbox") node.checked = Boolean(v);
      else node.value = String(v);
    }
    this.#showProvider();
    this.#showMode();
    // Budgets and memory fold away when off; a value set here (a scenario's, a link's) shows.
    const budgets = this.#field("[data-budgets]");
    if ([...budgets.querySelectorAll("input")].some((input) => Number(input.value) > 0)) budgets.open = true;
    this.#field("[data-remember-warning]").hidden = !this.#field("[data-remember]").checked;
  }

  /** Shows what "Test connection" found (`ok` false: an error, in the error colour). */
  setConnection(text, ok) {
    const node = this.#field("[data-connection]");
    node.textContent = text ?? "";
    if (ok === undefined) delete node.dataset.ok;
    else node.dataset.ok = String(ok);
  }

  /** Fills the scenario select from `scenarios(lang)`, keeping `selected` if it exists. */
  setScenarios(list, selected) {
    const select = this.#field('[name="scenario"]');
    const options = list.map((s) => {
      const o = document.createElement("option");
      o.value = s.name;
      o.textContent = s.title || s.name;
      return o;
    });
    select.replaceChildren(...options);
    if (selected && list.some((s) => s.name === selected)) select.value = selected;
  }

  /** Shows the chosen scenario's description under the select. */
  describe(text) {
    const node = this.querySelector("[data-scenario-description]");
    if (node) node.textContent = text ?? "";
  }

  /**
   * What the run buttons allow: `idle` (Run or Step start a run), `running` (Pause stops it at
   * the next pause point, Stop ends it), `paused` (Step goes one pause point on, Resume goes on
   * to the end, Stop ends it). `true`/`false` mean running/idle.
   *
   * Focus follows: to Stop when a run starts (Run has just been disabled under the reader's
   * finger), to Step when it pauses, back to Run when it ends, unless the reader has moved on to
   * something outside the form meanwhile (and never when nothing changes, as at page load).
   * `preventScroll`: the view follows the trajectory, not the focus.
   */
  setRunning(state) {
    const mode = state === true ? "running" : state === false ? "idle" : state;
    const before = this.#mode();
    const focus = document.activeElement;
    const ours = mode !== before && (!focus || focus === document.body || this.contains(focus));
    const comparing = this.hasAttribute("comparing");
    const enable = {
      run: mode === "idle",
      step: mode !== "running" && !comparing,
      pause: mode === "running" && !comparing,
      resume: mode === "paused",
      stop: mode !== "idle",
      import: mode === "idle" && !comparing,
    };
    for (const [action, on] of Object.entries(enable)) this.#field(`[data-action="${action}"]`).disabled = !on;
    this.toggleAttribute("running", mode === "running");
    this.toggleAttribute("paused", mode === "paused");
    const next = { running: "stop", paused: "step", idle: "run" }[mode];
    if (ours) this.#field(`[data-action="${next}"]`).focus({ preventScroll: true });
  }

  /**
   * While the compare view shows (`on`), Step, Pause, step-by-step, Export and Import are off: a
   * comparison runs each column to its end (or until Stop), and the single trajectory Export and
   * Import act on is hidden.
   */
  setComparing(on) {
    this.toggleAttribute("comparing", on);
    this.#field('[data-action="export"]').disabled = on;
    this.#field("[data-step-mode]").disabled = on;
    this.setRunning(this.#mode());
  }

  /** What the run buttons allow now (see `setRunning`). */
  #mode() {
    return this.hasAttribute("running") ? "running" : this.hasAttribute("paused") ? "paused" : "idle";
  }

  /** Enables the buttons once the agent has loaded. */
  setReady(ready) {
    for (const b of this.querySelectorAll("button")) b.disabled = !ready;
    if (ready) this.setComparing(this.hasAttribute("comparing"));
  }
}

/** A number field's value times `scale`, rounded; undefined when empty, negative or not a number. */
function number(text, scale = 1) {
  const n = Number(text);
  return text.trim() !== "" && Number.isFinite(n) && n >= 0 ? Math.round(n * scale) : undefined;
}
