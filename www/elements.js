//! Registers the page's custom elements under their tag names.
//!
//! Kept apart from the classes (as github's clipboard-copy-element does) so an embedder can
//! import a class and register it under another name, or subclass it, without a clash.

import { TaoTrajectory } from "./trajectory.js";
import { TaoStats } from "./stats.js";
import { TaoControls } from "./controls.js";
import { TaoTools } from "./tools.js";

const ELEMENTS = {
  "tao-trajectory": TaoTrajectory,
  "tao-stats": TaoStats,
  "tao-controls": TaoControls,
  "tao-tools": TaoTools,
};

for (const [name, cls] of Object.entries(ELEMENTS)) {
  if (!customElements.get(name)) customElements.define(name, cls);
}

/**
 * Elements only some visits need (the Prompt view, the fork's two branches, the compare view), loaded and
 * registered the first time a page asks for one: the first load stays small.
 */
const LATER = {
  "tao-prompt": () => import("./prompt-view.js").then((m) => m.TaoPrompt),
  "tao-branches": () => import("./branches.js").then((m) => m.TaoBranches),
  "tao-compare": () => import("./compare-view.js").then((m) => m.TaoCompare),
};

/** Registers the element `name` (loading its class if need be); resolves once it is defined. */
export async function define(name) {
  if (!customElements.get(name)) {
    const cls = await LATER[name]();
    if (!customElements.get(name)) customElements.define(name, cls);
  }
}
