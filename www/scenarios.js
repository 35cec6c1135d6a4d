//! The built-in scenarios, in the page's language: the select lists them, and choosing one fills
//! the task, the format, the step budget, the long-run memory and the tools it was written for.
//! The list of a language comes with its words (`loadsWithLang` of `<tao-controls>`): the page
//! starts with its own language's, and fetches the other's when the language is switched.

import { lang } from "./i18n.js";
import { state, controls, scenarioList, loadScenarioList, showError, messageOf } from "./app.js";
import { useScenarioTools, refreshModelView } from "./page-tools.js";

/** The agent's own default step budget (the paper's loop runs 8), for scenarios without one. */
const DEFAULT_MAX_STEPS = 8;

/** Fills the scenario select in the current language (its list loaded: `loadTao`, `loadsWithLang`). */
export function loadScenarios(selected) {
  state.scenarios = scenarioList(lang()) ?? [];
  controls.setScenarios(state.scenarios, selected);
}

/** Choosing a scenario fills the task, the format, the step budget and the memory it was written for. */
export function useScenario(name) {
  const s = state.scenarios.find((x) => x.name === name);
  if (!s) return;
  controls.apply({ task: s.task, format: s.format, maxSteps: s.maxSteps ?? DEFAULT_MAX_STEPS });
  controls.apply({ memoryTokens: s.memoryTokens ?? "", reflectEvery: s.reflectEvery ?? "" });
  controls.describe(s.description);
  useScenarioTools(name, s.tools);
  refreshModelView();
}

/** Lists the scenarios in the language just chosen; the scenario's own task follows it. */
function relist() {
  // The list is still the old language's here: was the task the scenario's own?
  const before = state.scenarios.find((s) => s.name === controls.settings().scenario);
  const taskWasScenarios = before && before.task === controls.settings().task;
  loadScenarios(controls.settings().scenario);
  const now = state.scenarios.find((s) => s.name === controls.settings().scenario);
  if (now) {
    controls.describe(now.description);
    // The scenario's own task follows the language; a task the user wrote stays.
    if (taskWasScenarios) controls.apply({ task: now.task });
  }
}

export function install() {
  // A language's list is fetched with its words, so the menu changes language with the page.
  controls.loadsWithLang = loadScenarioList;

  document.addEventListener("tao:scenario", (e) => useScenario(e.detail.name));

  document.addEventListener("tao:lang", () => {
    if (!state.tao) return;
    if (scenarioList(lang())) return relist();
    // The list did not come with the words (its fetch failed): tried again, the menu staying in
    // the old language until it comes.
    const chosen = lang();
    loadScenarioList(chosen).then(
      () => {
        if (lang() === chosen) relist();
      },
      (e) => showError(messageOf(e)),
    );
  });
}
