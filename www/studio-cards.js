//! The cards where a run asks the reader something: whether a tool call may run (approval),
//! what the model replies when You play it, and, while a stepped run is paused, where it stands
//! and what the next Step sends (the prompt about to go to the model, or the tool call about to
//! run). The studio drives the same loop a run uses; these are its only cards of its own.

import { t } from "./i18n.js";
import { el, card, formatInput, promptButton } from "./cards.js";

/**
 * Asks the reader to approve a tool call (the `approve` option of `agent.run`): a card with the
 * call and two buttons in the step being run (`live`: the view's `Live`). Resolves true or
 * false; `signal` aborting (Stop) denies. The `approval` event that follows replaces the card
 * with the decision.
 */
export function askApproval(live, request, signal) {
  const box = card("approval", t("card.approval"));
  box.append(el("p", { class: "card-text" }, t("approval.ask").replace("{tool}", request.tool ?? "")));
  // A tool with one text field (run_js's code) shows that text as written, newlines and all.
  const fields = request.input && typeof request.input === "object" ? Object.values(request.input) : [];
  const shown = fields.length === 1 && typeof fields[0] === "string" ? fields[0] : formatInput(request.input);
  box.append(el("pre", { class: "input" }, shown));
  const buttons = el("p", { class: "approval-buttons" });
  const yes = el("button", { type: "button", class: "primary", "data-approve": "yes" }, t("approval.approve"));
  const no = el("button", { type: "button", "data-approve": "no" }, t("approval.deny"));
  buttons.append(yes, no);
  box.append(buttons);
  live.ask(live.step, box);
  return new Promise((resolve) => {
    const decide = (answer) => {
      yes.disabled = no.disabled = true;
      resolve(answer);
    };
    yes.addEventListener("click", () => decide(true), { once: true });
    no.addEventListener("click", () => decide(false), { once: true });
    signal?.addEventListener("abort", () => decide(false), { once: true });
    yes.focus({ preventScroll: true });
  });
}

/**
 * Asks the reader to play the model (the "You" provider, `humanModel` in drive.js): a card in
 * the step being run with the prompt the model would receive and a box for the reply. Resolves
 * with the reply text when Send is pressed (or Ctrl+Enter); `signal` aborting (Stop) rejects.
 */
export function askReply(live, messages, signal) {
  const index = live.step;
  const box = card("human", t("human.title"));
  box.append(el("p", { class: "card-text" }, t("human.hint")));
  // What is new since the last turn comes first; the whole prompt folds open below it.
  const list = Array.from(messages ?? []);
  const lastTurn = list.map((m) => m.role).lastIndexOf("assistant");
  const shown = lastTurn >= 0 ? list.slice(lastTurn + 1) : list.slice(-1);
  for (const message of shown) box.append(promptMessage(message));
  const all = el("details", { class: "human-prompt" });
  all.append(el("summary", {}, t("human.prompt")));
  for (const message of list) all.append(promptMessage(message));
  box.append(all);
  const id = `reply-${index}-${Date.now()}`;
  box.append(el("label", { for: id, class: "human-label" }, t("human.reply")));
  const text = el("textarea", { id, rows: "5", class: "human-reply", spellcheck: "false", "data-reply": "" });
  const send = el("button", { type: "button", class: "primary", "data-send": "" }, t("human.send"));
  box.append(text, el("p", { class: "approval-buttons" }));
  box.lastChild.append(send);
  live.insert(index, box);
  text.focus({ preventScroll: false });
  return new Promise((resolve, reject) => {
    const done = () => {
      text.readOnly = send.disabled = true;
      box.remove();
      resolve(text.value);
    };
    send.addEventListener("click", done, { once: true });
    text.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        send.click();
      }
    });
    signal?.addEventListener("abort", () => {
      box.remove();
      reject(new Error("stopped"));
    }, { once: true });
  });
}

/**
 * The card saying where a paused run stands and what the next Step does: `{kind: "model",
 * index, messages}` (before the model call: the prompt about to be sent) or `{kind: "tool",
 * index, tool, input}` (before the tool call).
 */
export function pauseCard(pause) {
  const box = card("pause", t(pause.kind === "tool" ? "paused.tool" : "paused.model").replace("{n}", String(pause.index)));
  box.setAttribute("data-pause", pause.kind);
  if (pause.kind === "tool") {
    const line = el("p", { class: "action-line" });
    line.append(el("code", { class: "tool" }, pause.tool ?? ""));
    box.append(line, el("pre", { class: "input" }, formatInput(pause.input)));
  } else {
    const list = Array.from(pause.messages ?? []);
    const lastTurn = list.map((m) => m.role).lastIndexOf("assistant");
    // The new part of the prompt is shown; the whole of it folds open.
    const fresh = lastTurn >= 0 ? list.slice(lastTurn) : list;
    for (const message of fresh) box.append(promptMessage(message));
    if (fresh.length < list.length) {
      const all = el("details", { class: "human-prompt" });
      all.append(el("summary", {}, t("paused.whole")));
      for (const message of list) all.append(promptMessage(message));
      box.append(all);
    }
    const line = el("p");
    line.append(promptButton(pause.index, true));
    box.append(line);
  }
  box.append(el("p", { class: "hint" }, t("paused.hint")));
  return box;
}

/** One message of a prompt: its role, then its text (and the tool calls it carries). */
function promptMessage(message) {
  const box = el("div", { class: "said", "data-role": message.role ?? "" });
  box.append(el("span", { class: "said-role" }, message.role ?? ""));
  let text = message.content ?? "";
  for (const call of message.tool_calls ?? []) text += `${text ? "\n" : ""}→ ${call.name}(${formatInput(call.arguments)})`;
  // A long message scrolls inside its box, so the box takes the keyboard focus (to scroll it).
  box.append(el("pre", { class: "said-text", tabindex: "0" }, text));
  return box;
}
