//! Honest offline: the scripted model plays only its own scenario's question. When the task in
//! the form is not that question, the page says so (as the task is typed, and again on Run)
//! and offers the two ways to ask it: play the model yourself ("You"), or choose a real model.
//! It never answers a different question with the scenario's answer.

import { LANGS } from "./i18n.js";
import { state, controls, scenarioList, loadScenarioList } from "./app.js";

const notice = () => document.querySelector("[data-offline-notice]");

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
