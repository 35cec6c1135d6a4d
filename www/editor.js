//! The editor of a finished step (the Edit button beside a Thought, Action or Observation card,
//! drawn by `redraw.js`): the card's text becomes a text box (two for an action: its tool and
//! its input) with "Fork from here" and "Cancel". Fork from here emits a bubbling, cancelable
//! `tao:fork` event (`{index, edit: {kind, …}}`) for the page's `fork.js`; a live view has no
//! Edit buttons, since a step is only edited once it is part of a trajectory. Loaded at the
//! first press of Edit.

import { t } from "./i18n.js";
import { el, formatInput } from "./cards.js";
import { toolCalls } from "./step.js";

let ids = 0;

/**
 * Opens the editor on `box`, the card of `step`'s `kind` ("thought", "action" or "observation"):
 * its text as text boxes, until Fork from here (accepted) or Cancel; `button` (Edit) is hidden
 * meanwhile and gets the focus back.
 */
export function openEditor(box, button, step, kind) {
  const shown = [...box.children].filter((child) => !child.matches(".card-label"));
  const form = el("form", { class: "edit-form", "data-edit-form": kind });
  const fields = [];
  const field = (name, value, { multiline = true, label } = {}) => {
    const id = `tao-edit-field-${++ids}`;
    const wrap = el("div", { class: "edit-field" });
    wrap.append(el("label", { for: id }, label ?? t(`edit.label.${name}`)));
    const input = multiline
      ? el("textarea", { id, name, rows: String(rowsFor(value)), spellcheck: kind === "thought" ? "true" : "false" })
      : el("input", { id, name, type: "text", spellcheck: "false", autocapitalize: "off" });
    input.value = value; // a value, never markup
    wrap.append(input);
    form.append(wrap);
    fields.push(input);
    return input;
  };
  const own = toolCalls(step)[0];
  let read;
  if (kind === "action") {
    const input = own.action.input;
    const asJson = input !== null && typeof input === "object";
    const tool = field("tool", own.action.tool ?? "", { multiline: false });
    const text = field("input", formatInput(input));
    read = () => {
      if (!asJson) return { kind, tool: tool.value.trim(), input: text.value };
      try {
        return { kind, tool: tool.value.trim(), input: JSON.parse(text.value) };
      } catch (e) {
        throw new Error(`${t("edit.badJson")} ${e.message}`);
      }
    };
  } else {
    const text = field(kind, kind === "thought" ? step.thought : own.observation);
    read = () => ({ kind, text: text.value });
  }
  const problem = el("p", { class: "edit-problem", role: "alert", hidden: "" });
  const buttons = el("p", { class: "edit-buttons" });
  const fork = el("button", { type: "submit", class: "primary" }, t("edit.fork"));
  const cancel = el("button", { type: "button" }, t("edit.cancel"));
  buttons.append(fork, cancel);
  form.append(problem, buttons);

  const close = () => {
    form.remove();
    for (const child of shown) child.hidden = false;
    button.hidden = false;
    button.focus();
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    let edit;
    try {
      edit = read();
    } catch (err) {
      problem.textContent = err.message;
      problem.hidden = false;
      return;
    }
    // The page may refuse (a run is in flight) by cancelling the event: the edit stays open.
    const detail = { index: step.index, edit };
    if (box.dispatchEvent(new CustomEvent("tao:fork", { bubbles: true, cancelable: true, detail }))) close();
  });
  cancel.addEventListener("click", close);
  form.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault(); // Ctrl/⌘ + Enter forks, as it runs in the task box
      form.requestSubmit();
    }
  });

  for (const child of shown) child.hidden = true;
  button.hidden = true;
  box.append(form);
  fields[0].focus();
}

/** A text box tall enough for `text` (roughly), within reason. */
function rowsFor(text) {
  const lines = String(text ?? "").split("\n");
  const wrapped = lines.reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 64)), 0);
  return Math.min(12, Math.max(2, wrapped));
}
