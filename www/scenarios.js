//! The built-in scenarios, in the page's language: the select lists them, and choosing one fills
//! the task, the format, the step budget, the long-run memory and the tools it was written for.

import { lang } from "./i18n.js";
import { state, controls, scenarioList } from "./app.js";
import { useScenarioTools, refreshModelView } from "./page-tools.js";

/** The agent's own default step budget (the paper's loop runs 8), for scenarios without one. */
const DEFAULT_MAX_STEPS = 8;

/** Fills the scenario select in the current language. */
export function loadScenarios(selected) {
  state.scenarios = scenarioList(lang());
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

export function install() {
  document.addEventListener("tao:scenario", (e) => useScenario(e.detail.name));

  document.addEventListener("tao:lang", () => {
    if (!state.tao) return;
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
  });
}
