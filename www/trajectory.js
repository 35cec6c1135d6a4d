//! `<tao-trajectory>`: draws a ReAct trajectory as one block per step, with a card for each
//! Thought, Action, Observation, Answer, bad call (repair) and note (the cards: `cards.js`).
//!
//! It has two inputs and one rule. While a run streams, `handleEvent(ev)` takes the agent's
//! events and shows the model's raw words live, then the parsed cards as they become known
//! (`live.js`). When the run resolves, `render(trajectory)` throws that view away and draws the
//! returned trajectory (`redraw.js`): the trajectory is the single source of truth, and the very
//! same function draws an imported file. The rule: model and tool text reaches the page only as
//! text, never as HTML (`el()` in cards.js).
//!
//! While a run goes, the view also asks the reader what the run needs (`studio-cards.js`): to
//! approve a tool call, to reply as the model (You), and, when a stepped run pauses, what it
//! sends next. A finished view has an Edit button on each Thought, Action and Observation card
//! (`editor.js`), whose Fork from here emits a bubbling `tao:fork` event for the page's `fork.js`.
//!
//! The class is registered as `tao-trajectory` in `elements.js`, not here, so an embedder can
//! register it under another name or subclass it first.
//!
//! The demo page styles it with its own sheet (style.css). The package (`dist/`) styles a view
//! that stands alone on a page from its own JavaScript (`embed/styles.js`, through
//! `adoptStyles`), with rules scoped to the view, in the light or dark `theme` its attribute
//! names (`auto`, the default, follows the system).

import { t, lang, setLang } from "./i18n.js";
import { el, taskCard, legend, setReady } from "./cards.js";
import { Live } from "./live.js";
import { drawTrajectory } from "./redraw.js";
// The studio's cards (approval, You, the pause card) load with the first of them: a page that
// only watches runs does not download them.
let studioCards = null;
const studio = () => (studioCards ??= import("./studio-cards.js"));

/** HTMLElement, or a plain class where there is no DOM (Node): importing the package there works. */
const ElementBase = globalThis.HTMLElement ?? class {};

export class TaoTrajectory extends ElementBase {
  /** Where the live view's next cards go. */
  #live = new Live(this);
  /** The trajectory drawn last by `render` (what an edit forks from). */
  #trajectory = null;

  /** Styles a view where no page sheet does: set by the package (`styles.js`), null on the demo page. */
  static adoptStyles = null;
  static observedAttributes = ["theme"];

  /** The trajectory this view drew last, or null (a live view not yet rendered). */
  get trajectory() {
    return this.#trajectory;
  }

  connectedCallback() {
    TaoTrajectory.adoptStyles?.(this);
    if (!this.hasChildNodes()) this.showEmpty();
  }

  attributeChangedCallback() {
    if (this.isConnected) TaoTrajectory.adoptStyles?.(this); // a new theme
  }

  /** The welcome text shown before anything has run. */
  showEmpty() {
    this.#inLang(() => this.#drawEmpty());
  }

  #drawEmpty() {
    this.#reset();
    const box = el("div", { class: "empty", "data-kind": "empty" });
    box.append(el("p", { class: "empty-title" }, t("empty.title")));
    box.append(el("p", { class: "empty-body" }, t("empty.body")));
    box.append(legend());
    this.append(box);
  }

  /**
   * Starts a live view for a new run of `task`. While a run streams into the view it carries
   * `data-live` (not `aria-busy`: that would hold a screen reader's news back until the end).
   */
  begin(task, meta = {}) {
    this.#inLang(() => {
      this.#reset();
      this.append(taskCard(task, meta));
      this.toggleAttribute("data-live", true);
    });
  }

  /** Takes one event from `agent.run(…, { onEvent })` and updates the live view. */
  handleEvent(ev) {
    if (!ev || typeof ev !== "object") return;
    this.#inLang(() => this.#live.take(ev));
    this.dispatchEvent(new CustomEvent("tao:trajectory-event", { bubbles: true, detail: ev }));
  }

  /** Asks the reader to approve a tool call (the `approve` option of `agent.run`); resolves true or false. */
  askApproval(request, signal) {
    return studio().then((cards) => this.#inLang(() => cards.askApproval(this.#live, request, signal)));
  }

  /** Asks the reader to play the model (You): resolves with the reply typed; `signal` aborting rejects. */
  askReply(messages, signal, hints) {
    return studio().then((cards) => this.#inLang(() => cards.askReply(this.#live, messages, signal, hints)));
  }

  /**
   * Says where a paused run stands and what the next Step does: `{kind: "model", index,
   * messages}` (before the model call: the prompt about to be sent) or `{kind: "tool", index,
   * tool, input}` (before the tool call).
   */
  showPause(pause) {
    this.hidePause();
    const shown = this.#pauses;
    // Resolves once the card is drawn (unless the run went on meanwhile).
    return studio().then((cards) => {
      if (shown === this.#pauses) this.append(this.#inLang(() => cards.pauseCard(pause)));
    });
  }

  /** Removes the pause card (the run goes on), and one still loading. */
  hidePause() {
    this.#pauses += 1;
    for (const node of this.querySelectorAll('[data-kind="pause"]')) node.remove();
  }

  /** Pause cards asked for: one loading is drawn only if no other came after it. */
  #pauses = 0;

  /**
   * Draws a whole trajectory (the result of a run, or an imported file), with Edit buttons on
   * its cards; `{ live: true }` draws it without them, as the start of a live view.
   */
  render(traj, { live = false } = {}) {
    // The page marks this element `role="log"`, a live region: screen readers read each card as
    // a run adds it. A redraw is not news (the run was just read card by card; an import was
    // just chosen), so it is drawn with the region silenced for a couple of frames.
    this.setAttribute("aria-live", "off");
    requestAnimationFrame(() => requestAnimationFrame(() => this.removeAttribute("aria-live")));
    this.#reset();
    this.#trajectory = traj;
    this.append(...this.#inLang(() => drawTrajectory(traj, !live)));
    // A run that goes on from here adds to these steps (a paused tool call, a fork).
    for (const block of this.querySelectorAll(":scope > [data-step]")) this.#live.adopt(block);
    this.dispatchEvent(new CustomEvent("tao:rendered", { bubbles: true, detail: { steps: (traj.steps ?? []).length } }));
  }

  /** Enables the Prompt buttons of steps 1…`count` of the live view (a paused run's trajectory). */
  enablePrompts(count) {
    for (const button of this.querySelectorAll("button[data-prompt]")) setReady(button, Number(button.dataset.prompt) <= count);
  }

  /**
   * Starts a live view from a trajectory that a run goes on from (a fork): its steps so far,
   * then whatever `handleEvent` streams, into those steps (an edited action's new observation)
   * or after them.
   */
  continueFrom(traj) {
    this.render(traj, { live: true });
    this.toggleAttribute("data-live", true);
  }

  /**
   * `draw()`, in the words of this view's `lang` attribute when it has one (`<tao-agent lang>`
   * gives its view its own), else the page's: two elements on one page, in two languages, each
   * draw in theirs, even while both run.
   */
  #inLang(draw) {
    const own = this.getAttribute?.("lang");
    if (!own || own === lang()) return draw();
    const page = lang();
    setLang(own);
    try {
      return draw();
    } finally {
      setLang(page);
    }
  }

  #reset() {
    this.removeAttribute("data-live");
    this.#trajectory = null;
    this.#live.clear();
    this.replaceChildren();
  }
}
