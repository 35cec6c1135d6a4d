//! Runs as training data (seed 000: ReAct trajectories as data to learn from). Every run that ends
//! on the page this visit is kept (`keepRun` in `app.js`: single runs, forks, compare columns,
//! imports); the run shown can be rated good or bad, and **Export JSONL** writes all of them, one
//! JSON object a line, in the schema the README documents: the task, the mode, the model, each
//! step's prompt messages, reply, action and observation, and a reward — the rating (1 good,
//! 0 bad), else a score the run has (a compare column's F1 against the gold answer), else null.
//! The record itself is the wasm's (`trainingRecord`), the same one `tao export-jsonl` writes.
//!
//! A rating is kept on the trajectory as `reward`, so Export JSON writes it too and
//! `tao export-jsonl` reads it back. Export JSONL's own code is `export-runs.js`, loaded at the
//! first export.

import { t, lang, addWords } from "./i18n.js";
import { state, controls, keepRun, showStatus, showError, messageOf } from "./app.js";

// The bar's words in English, added when it first loads (the Chinese ones are in i18n-zh.js).
addWords({
  en: {
    "rate.good": "Rated good: reward 1 in the JSONL export.",
    "rate.bad": "Rated bad: reward 0 in the JSONL export.",
    "rate.cleared": "Rating taken back.",
    "runs.count": "{n} runs this visit",
    "runs.count.one": "{n} run this visit",
  },
});

const bar = () => document.querySelector("[data-rate-bar]");

/** Shows the bar once a run has ended, with the shown run's rating pressed. */
function refresh() {
  const box = bar();
  if (!box) return;
  const traj = state.lastTrajectory;
  box.hidden = state.runs.length === 0;
  // In the compare view each column is scored against the gold answer; a rating is for one run,
  // once it has ended: not while the next one runs or is paused.
  const busy = controls.hasAttribute("running") || controls.hasAttribute("paused");
  const rateable = Boolean(traj?.stop && traj.steps?.length) && !state.compare && !busy;
  box.querySelector("[data-rate-group]").hidden = !rateable;
  for (const button of box.querySelectorAll("[data-rate]")) {
    button.setAttribute("aria-pressed", String(rateable && traj.reward === Number(button.dataset.rate)));
  }
  const n = state.runs.length;
  // "1 run", "2 runs" (Chinese has one form): the language's plural rules pick the words.
  const form = t(`runs.count.${new Intl.PluralRules(lang()).select(n)}`);
  box.querySelector("[data-runs-count]").textContent = (form.startsWith("runs.") ? t("runs.count") : form).replace("{n}", String(n));
}

/** Rates the run shown (pressing the pressed button again takes the rating back). */
function rate(value) {
  const traj = state.lastTrajectory;
  if (!traj?.stop) return;
  keepRun(traj);
  if (traj.reward === value) delete traj.reward;
  else traj.reward = value;
  refresh();
  showStatus(traj.reward === undefined ? "rate.cleared" : value ? "rate.good" : "rate.bad");
}

/**
 * Starts the bar: the page loads this module when the first run ends or a trajectory is imported
 * (`rating` in main.js), with that run to keep; from then on it listens for the others itself.
 */
export function start() {
  const keep = () => {
    keepRun(state.lastTrajectory);
    refresh();
  };
  // A trajectory drawn whole (a run's end, an import, a fork's end): keep it if it ended.
  document.addEventListener("tao:rendered", keep);
  document.addEventListener("tao:kept", refresh); // (a compare keeps its runs when all have ended)
  document.addEventListener("tao:lang", () => setTimeout(refresh));
  // Runs start and end in several parts (a run, a fork, a comparison), and a comparison opens
  // and closes: the buttons' state says when.
  const watch = new MutationObserver(refresh);
  watch.observe(controls, { attributes: true, attributeFilter: ["running", "paused"] });
  const compare = document.querySelector('[data-action="compare"]');
  if (compare) watch.observe(compare, { attributes: true, attributeFilter: ["aria-pressed"] });
  for (const button of bar()?.querySelectorAll("[data-rate]") ?? []) {
    button.addEventListener("click", () => rate(Number(button.dataset.rate)));
  }
  // Export JSONL's code comes with the first export (export-runs.js).
  bar()
    ?.querySelector('[data-action="export-jsonl"]')
    ?.addEventListener("click", () => import("./export-runs.js").then((part) => part.exportRuns(), (error) => showError(messageOf(error))));
  keep();
}
