//! Registers the page's custom elements under their tag names.
//!
//! Kept apart from the classes (as github's clipboard-copy-element does) so an embedder can
//! import a class and register it under another name, or subclass it, without a clash.

import { TaoTrajectory } from "./trajectory.js";
import { TaoStats } from "./stats.js";
import { TaoControls } from "./controls.js";
import { TaoTools } from "./tools.js";
import { TaoPrompt } from "./prompt-view.js";
import { TaoBranches } from "./branches.js";

const ELEMENTS = {
  "tao-trajectory": TaoTrajectory,
  "tao-stats": TaoStats,
  "tao-controls": TaoControls,
  "tao-tools": TaoTools,
  "tao-prompt": TaoPrompt,
  "tao-branches": TaoBranches,
};

for (const [name, cls] of Object.entries(ELEMENTS)) {
  if (!customElements.get(name)) customElements.define(name, cls);
}
