//! Honest offline: the scripted model plays only its own scenario's question. When the task in
//! the form is not that question, the page says so as the task is typed (under it), and on Run
//! where the reader looks then (`offline-notice.js`, loaded the first time a Run is refused),
//! with the real choices: play the model yourself ("You"), choose a real model, or ask the
//! scenario's own question. It never answers a different question with the scenario's answer.

import { LANGS } from "./i18n.js";
import { state, controls, scenarioList, loadScenarioList, showError, messageOf } from "./app.js";

const notice = () => document.querySelector("[data-offline-notice]");

/** The part that says a Run was refused, and acts on the choices (loaded when first needed). */
const choices = () => import("./offline-notice.js");

/**
 * The scenario's question in every language the page speaks whose list is loaded: the page's
 * first language's always, the other's once something has needed it (`allLists`).
 */
function questions(name) {
  return LANGS.map((lang) => scenarioList(lang)?.find((s) => s.name === name)?.task?.trim());
}

/** Whether `settings` ask the offline model a question that is not its scenario's (in the lists loaded). */
function mismatched(settings) {
  if (!state.tao || settings.provider !== "scripted") return false;
  return !questions(settings.scenario).includes(settings.task.trim());
}

/** Resolves once every language's scenario list is loaded (each fetched once, when first needed). */
const allLists = () => Promise.all(LANGS.map((lang) => loadScenarioList(lang)));
const allLoaded = () => LANGS.every((lang) => scenarioList(lang));

/**
 * Shows or hides the notice for the form as it is (without moving the focus): at once, from the
 * lists loaded, and again once the others have come when the task is not the question in those
 * (it may be the question in a language the page has not needed yet; a failed fetch is tried
 * again at the next refresh).
 */
export function refresh() {
  const box = notice();
  if (!box) return;
  // Once the form changes, a refused Run is history: the notice under the task says the rest.
  document.querySelector("[data-run-notice]")?.remove();
  box.hidden = !mismatched(controls.settings());
  if (!box.hidden && !allLoaded()) allLists().then(refresh, () => {});
}

/**
 * Before a run: true (and the notice, focused) when the offline model cannot play this task. A
 * task that is not the question in the lists loaded is looked up in every language first (when
 * a list cannot come, the lists loaded decide).
 */
export async function offlineMismatch(settings) {
  if (mismatched(settings)) await allLists().catch(() => {});
  const mismatch = mismatched(settings);
  const box = notice();
  if (box && mismatch) {
    // One notice at a time: on Run, the stage's (the same words and choices).
    box.hidden = true;
    choices().then((part) => part.refuse(box), (error) => showError(messageOf(error)));
  }
  return mismatch;
}

export function install() {
  document.querySelector('[name="task"]').addEventListener("input", refresh);
  for (const type of ["tao:scenario", "tao:provider", "tao:lang"]) document.addEventListener(type, () => setTimeout(refresh));
  // The choices, under the task or in the stage: You, a model, the scenario's own question.
  document.addEventListener("click", (e) => {
    const choice = e.target.closest?.('[data-action="use-human"], [data-action="use-local"], [data-action="choose-model"], [data-action="use-question"]');
    if (choice) choices().then((part) => part.choose(choice.dataset.action, refresh), (error) => showError(messageOf(error)));
  });
}
