//! The live view of a run: the agent's events (`step`, `token`, `thought`, …) turned into cards
//! as they come. The model's raw words are shown as they stream, then the parsed cards as they
//! become known, each before the raw text, which stays last in its step and folds away when the
//! reply is complete. Nothing here is the record: when the run returns, `<tao-trajectory>`
//! draws the trajectory instead (`redraw.js`).

import { t } from "./i18n.js";
import * as cards from "./cards.js";
import { el } from "./cards.js";

/** The download card's code (download-card.js), loaded with the first `download` event. */
let downloadCard = null;

/** The live state of one `<tao-trajectory>` (`root`): where each step's next card goes. */
export class Live {
  /** The step blocks, by step index. */
  #steps = new Map();
  /** Per step, the live raw-text node that token deltas are appended to (linear time). */
  #raw = new Map();
  /** Per step, the element holding the current reply's raw text (live or folded); cards go before it. */
  #rawBox = new Map();
  /** Per step, the live reasoning text node that `reasoning` deltas are appended to. */
  #reasoning = new Map();
  /** Approval requests waiting for the reader, by step index. */
  #pending = new Map();

  /** The note card the last event drew, if the last event was a note (see `model_call`). */
  #note = null;



  constructor(root) {
    this.root = root;
    /** The step being run: where a question to the reader goes (`studio-cards.js`). */
    this.step = 1;
    /** Why the model is being asked again, `{why, message}`, from the model call in flight (else null). */
    this.retried = null;
  }

  /** Forgets every step (the view is being emptied). */
  clear() {
    for (const map of [this.#steps, this.#raw, this.#rawBox, this.#reasoning, this.#pending]) map.clear();
    this.step = 1;
    this.retried = null;
  }

  /** A step block already drawn that a run may go on into (a paused run, a fork). */
  adopt(block) {
    const index = Number(block.dataset.step);
    this.#steps.set(index, block);
    const raw = block.querySelector(":scope > .step-body > details.raw");
    if (raw) this.#rawBox.set(index, raw);
    this.step = index;
  }

  /** Takes one event from `agent.run(…, { onEvent })` into the view. */
  take(ev) {
    const note = this.#note;
    this.#note = null;
    switch (ev.type) {
      case "step":
        this.step = ev.index;
        this.#block(ev.index);
        break;
      case "model_call": {
        // Asked again within the step: fold the previous reply where it is; the next token
        // starts a new live box.
        const raw = ev.n > 1 ? this.#endRaw(ev.index) : null;
        if (ev.n > 1) {
          this.#rawBox.delete(ev.index);
          this.#reasoning.delete(ev.index);
        }
        this.retried = ev.retried ?? null;
        if (ev.retried) {
          // Why it is asked again, in words, with the reply that could not be read inside, as
          // the redraw shows it; in place of the note just before, which said it with the
          // reason's internal name ("the reply could not be read (no_action)").
          note?.remove();
          const card = cards.repairCard(ev.retried.why, ev.retried.message, t("card.retry"));
          if (raw) card.append(raw);
          this.insert(ev.index, card);
        }
        break;
      }
      case "download":
        this.#downloading(ev);
        break;
      case "reasoning":
        this.#think(ev.index, ev.text);
        break;
      case "token":
        this.#token(ev.index, ev.text);
        break;
      case "thought":
        this.insert(ev.index, cards.thoughtCard(ev.text));
        break;
      case "action":
        this.#endRaw(ev.index);
        this.#insertCall(ev.index, ev.tool_call, cards.actionCard(ev.tool, ev.input));
        break;
      case "observation":
        this.#endRaw(ev.index);
        this.#insertCall(ev.index, ev.tool_call, cards.observationCard(ev.text, ev.fuel, ev.picture));
        break;
      case "approval":
        this.#pending.get(ev.index)?.remove();
        this.#pending.delete(ev.index);
        this.#insertCall(ev.index, ev.tool_call, cards.approvalCard(ev.tool, ev.approved));
        break;
      case "repair": {
        // The reply that could not be read goes inside its repair card, as in a redraw (a
        // repair of a later call of the reply is about its input only: the reply was read).
        const card = cards.repairCard(ev.why, ev.message);
        const raw = ev.tool_call ? null : this.#endRaw(ev.index);
        this.#insertCall(ev.index, ev.tool_call, card);
        if (raw) {
          card.append(raw);
          this.#rawBox.delete(ev.index);
        }
        break;
      }
      case "note":
        this.#note = cards.noteCard(ev.text);
        this.insert(ev.index, this.#note);
        break;
      case "switch":
        this.insert(ev.index, cards.switchCard(ev.from, ev.to, ev.why));
        break;
      case "answer":
        this.#endRaw(ev.index);
        this.insert(ev.index, cards.answerCard(ev.text));
        break;
      case "summary":
      case "reflection":
        // Live, who wrote it is all that is known of its model call (`call` comes with the redraw).
        this.#memo({ kind: ev.type, after: ev.after, covers: ev.covers, text: ev.text, call: ev.by_model ? {} : null });
        break;
      case "stopped":
        for (const index of this.#raw.keys()) this.#endRaw(index);
        if (ev.reason !== "answer") this.root.append(cards.stopCard(ev.reason, ev.message));
        this.root.removeAttribute("data-live");
        break;
    }
  }

  /** Puts `box`, a question about step `index`'s tool call, in that step until its `approval` event. */
  ask(index, box) {
    this.#pending.set(index, box);
    this.insert(index, box);
  }

  /** Inserts a card before the raw text (live or folded), which stays last in its step. */
  insert(index, card) {
    const body = this.#body(index);
    const raw = this.#rawBox.get(index);
    body.insertBefore(card, raw?.parentNode === body ? raw : null);
  }

  /** A memo written between steps: after the block of step `after` (and the memos already there). */
  #memo(memo) {
    let at = this.#steps.get(memo.after);
    while (at?.nextElementSibling?.matches(".card-memo")) at = at.nextElementSibling;
    if (at) at.after(cards.memoCard(memo));
    else this.root.append(cards.memoCard(memo));
  }

  #block(index) {
    let block = this.#steps.get(index);
    if (!block) {
      block = cards.stepShell(index);
      this.#steps.set(index, block);
      this.root.append(block);
    }
    return block;
  }

  /** The model's files downloading (the model in the tab): drawn by download-card.js, loaded at the first. */
  #downloading(ev) {
    downloadCard ??= import("./download-card.js");
    downloadCard.then((part) => part.draw(this, ev));
  }

  /** Appends a streamed delta to the step's live raw text, creating it on the first token. */
  #token(index, text) {
    let node = this.#raw.get(index);
    if (!node) {
      // Hidden from screen readers: inside the live log, every delta would be read out on its
      // own. They hear the cards parsed from it instead.
      const live = el("div", { class: "raw-live", "data-kind": "raw", "aria-hidden": "true" });
      live.append(el("span", { class: "raw-label" }, t("card.streaming")));
      const pre = el("pre", { class: "raw-text" });
      node = document.createTextNode("");
      pre.append(node);
      live.append(pre);
      this.#body(index).append(live);
      this.#raw.set(index, node);
      this.#rawBox.set(index, live);
    }
    node.appendData(String(text ?? ""));
  }

  /** The model's reply for this step is complete: fold the live raw text away (and return it). */
  #endRaw(index) {
    const node = this.#raw.get(index);
    if (!node) return null;
    this.#raw.delete(index);
    const live = node.parentNode.parentNode;
    const folded = cards.rawDetails(node.data);
    live.replaceWith(folded);
    this.#rawBox.set(index, folded);
    return folded;
  }

  /** Appends a streamed piece of reasoning to the step's folded Reasoning, creating it at the first. */
  #think(index, text) {
    let node = this.#reasoning.get(index);
    if (!node) {
      const box = cards.reasoningDetails("");
      node = document.createTextNode("");
      box.querySelector("pre").append(node);
      this.insert(index, box);
      this.#reasoning.set(index, node);
    }
    node.appendData(String(text ?? ""));
  }

  /**
   * Inserts a card of tool call `call` (0 unless the reply made several): after the cards of that
   * call so far, else after those of the calls before it, so each Action is followed by its own
   * Observation however the tools' results arrive.
   */
  #insertCall(index, call = 0, card) {
    const body = this.#body(index);
    const before = [...body.querySelectorAll(":scope > [data-call]")].filter((n) => n.dataset.call <= call).at(-1);
    cards.forCall(card, call);
    if (before) before.after(card);
    else this.insert(index, card);
    cards.numberCalls(body);
  }

  #body(index) {
    return this.#block(index).querySelector(".step-body");
  }
}
