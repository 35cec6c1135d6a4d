//! Export and Import: the last trajectory as a JSON file, and such a file drawn again. The file is
//! the trajectory the run returned, read back by the wasm's `parseTrajectory` (which refuses a
//! malformed or future-version file), so an imported run is drawn exactly as it ran.

import { t } from "./i18n.js";
import { state, view, stats, showError, showStatus } from "./app.js";
import { explained } from "./explain.js";

function exportTrajectory() {
  if (!state.lastTrajectory) {
    showStatus("status.nothingToExport");
    return;
  }
  download("trajectory.json", JSON.stringify(state.lastTrajectory, null, 2) + "\n", "application/json");
  showStatus("status.exported");
}

/** Saves `text` as a file called `name` (the browser's download). */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function importTrajectory({ name, text }) {
  if (!state.tao) return;
  let traj;
  try {
    traj = state.tao.parseTrajectory(text);
  } catch (err) {
    // The previous view stays as it was: a bad file must not wipe a good trajectory.
    showError(`${t("error.import")} ${explained(err)}`);
    return;
  }
  showError("");
  state.lastTrajectory = traj;
  view.render(traj);
  stats.show(traj.stats, traj.stop);
  showStatus("status.imported", { name });
  // For the parts that replace what they show with an imported run (fork.js's branches).
  document.dispatchEvent(new CustomEvent("tao:imported", { detail: traj }));
}

/** Acts on `tao:export` or `tao:import` (main.js loads this module at the first of them). */
export function handle(e) {
  if (e.type === "tao:export") exportTrajectory();
  else importTrajectory(e.detail);
}
