//! Honest offline: the scripted model plays only its own scenario's question. When the task in
//! the form is not that question, the page says so (as the task is typed, and again on Run)
//! and offers the two ways to ask it: play the model yourself ("You"), or choose a real model.
//! It never answers a different question with the scenario's answer.

import { state, controls, scenarioList } from "./app.js";

const notice = () => document.querySelector("[data-offline-notice]");

/** The scenario's question in every language the page speaks. */
function questions(name) {
  return ["en", "zh"].map((lang) => scenarioList(lang).find((s) => s.name === name)?.task?.trim());
}

/** Whether `settings` ask the offline model a question that is not its scenario's. */
function mismatched(settings) {
  if (!state.tao || settings.provider !== "scripted") return false;
  return !questions(settings.scenario).includes(settings.task.trim());
}

/** Shows or hides the notice for the form as it is (without moving the focus). */
export function refresh() {
  const box = notice();
  if (box) box.hidden = !mismatched(controls.settings());
}

/** Before a run: true (and the notice, focused) when the offline model cannot play this task. */
export function offlineMismatch(settings) {
  const mismatch = mismatched(settings);
  const box = notice();
  if (box) {
    box.hidden = !mismatch;
    if (mismatch) box.querySelector("button")?.focus();
  }
  return mismatch;
}

export function install() {
  document.querySelector('[name="task"]').addEventListener("input", refresh);
  for (const type of ["tao:scenario", "tao:provider", "tao:lang"]) document.addEventListener(type, () => setTimeout(refresh));
  document.querySelector('[data-action="use-human"]').addEventListener("click", () => {
    controls.apply({ provider: "human" });
    document.querySelector('[name="provider"]').dispatchEvent(new Event("change", { bubbles: true }));
    refresh();
  });
  document.querySelector('[data-action="choose-model"]').addEventListener("click", () => {
    document.querySelector('[name="provider"]').focus();
  });
}
