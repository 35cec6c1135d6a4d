//! Compare modes: the ReAct paper's claim, seen on one question. **Compare** in the header (or
//! `?compare=react,act,cot,standard`) turns the stage into columns, one per prompt mode, and Run
//! then runs the form's question in each mode at once, side by side (see `compare-view.js`,
//! loaded the first time it is needed: a page that never compares never downloads it).
//!
//! This part is the switch: it owns the header button, answers the form's Run and Step while
//! comparing (run.js leaves them alone then: `state.compare` is set), and tells Share which modes
//! are shown.

import { state, controls, view, stats } from "./app.js";
import { define } from "./elements.js";
import { setFolded } from "./present.js";

const button = () => document.querySelector('[data-action="compare"]');

/** The `<tao-compare>` while comparing, else null. */
let box = null;
/** What the compare view stands in for while it is open: the page's view, or the two branches
 * of a fork that hold it (`<tao-branches>`), shown again as they were when it closes. */
let single = null;

/** Opens the compare view with `modes` (names; unknown ones are ignored), or updates its modes. */
export async function openCompare(modes) {
  if (!box) {
    // One alternative view of the stage at a time: the benchmark's panel gives way.
    document.dispatchEvent(new CustomEvent("tao:benchmark-close"));
    await define("tao-compare");
    box = document.createElement("tao-compare");
    box.className = "compare";
    // Columns side by side want the width: the settings fold away (a button brings them back).
    if (window.matchMedia("(min-width: 1200px)").matches) setFolded(true);
    stats.hidden = true;
    // After a fork, the view is one of two branches: the comparison takes the place of both,
    // not of the original's half.
    single = view.closest("tao-branches") ?? view;
    single.hidden = true;
    single.after(box);
    state.compare = box;
    controls.setComparing(true);
    button()?.setAttribute("aria-pressed", "true");
  }
  if (modes?.length) box.setModes(modes);
  return box;
}

/** Back to the single trajectory (a compare still running is stopped first). */
export function closeCompare() {
  if (!box) return;
  box.stop();
  box.remove();
  box = null;
  state.compare = null;
  stats.hidden = false;
  if (single) single.hidden = false;
  single = null;
  button()?.setAttribute("aria-pressed", "false");
  controls.setComparing(false);
  controls.setRunning(false);
}

export function install() {
  button()?.addEventListener("click", () => (box ? closeCompare() : openCompare()));
  // Run while comparing (in step-by-step mode it says Step: a comparison runs each column to
  // its end all the same; the Step button is off).
  for (const type of ["tao:run", "tao:step"]) {
    document.addEventListener(type, (e) => {
      if (box && state.tao) box.run(e.detail);
    });
  }
  document.addEventListener("tao:compare-close", closeCompare);
}
