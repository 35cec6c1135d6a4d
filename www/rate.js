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

import { t } from "./i18n.js";
import { state, keepRun, showStatus, showError, messageOf } from "./app.js";

const bar = () => document.querySelector("[data-rate-bar]");

/** Shows the bar once a run has ended, with the shown run's rating pressed. */
function refresh() {
  const box = bar();
  if (!box) return;
  const traj = state.lastTrajectory;
  box.hidden = state.runs.length === 0;
  // In the compare view each column is scored against the gold answer; a rating is for one run.
  const rateable = Boolean(traj?.stop) && !state.compare;
  box.querySelector("[data-rate-group]").hidden = !rateable;
  for (const button of box.querySelectorAll("[data-rate]")) {
    button.setAttribute("aria-pressed", String(rateable && traj.reward === Number(button.dataset.rate)));
  }
  box.querySelector("[data-runs-count]").textContent = t("runs.count").replace("{n}", String(state.runs.length));
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

export function install() {
  // A trajectory drawn whole (a run's end, an import, a fork's end): keep it if it ended.
  document.addEventListener("tao:rendered", () => {
    keepRun(state.lastTrajectory);
    refresh();
  });
  document.addEventListener("tao:kept", refresh); // (a compare keeps its runs when all have ended)
  document.addEventListener("tao:lang", () => setTimeout(refresh));
  for (const button of bar()?.querySelectorAll("[data-rate]") ?? []) {
    button.addEventListener("click", () => rate(Number(button.dataset.rate)));
  }
  // Export JSONL's code comes with the first export (export-runs.js).
  bar()
    ?.querySelector('[data-action="export-jsonl"]')
    ?.addEventListener("click", () => import("./export-runs.js").then((part) => part.exportRuns(), (error) => showError(messageOf(error))));
}

export { refresh };
