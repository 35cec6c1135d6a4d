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
 * Elements only some visits need (the Prompt view, the fork's two branches, the compare view), loaded
 * with their stylesheets and registered the first time a page asks for one: the first load stays small.
 */
const LATER = {
  "tao-prompt": { load: () => import("./prompt-view.js").then((m) => m.TaoPrompt), styles: "prompt-view.css" },
  "tao-branches": { load: () => import("./branches.js").then((m) => m.TaoBranches), styles: "branches.css" },
  "tao-compare": { load: () => import("./compare-view.js").then((m) => m.TaoCompare), styles: "compare-view.css" },
};

/** Registers the element `name` (loading its class and rules if need be); resolves once it is defined and styled. */
export async function define(name) {
  if (!customElements.get(name)) {
    const [cls] = await Promise.all([LATER[name].load(), stylesheet(LATER[name].styles)]);
    if (!customElements.get(name)) customElements.define(name, cls);
  }
}

/**
 * Adds the stylesheet `file` (beside the page's modules) to the page, once; resolves when its
 * rules apply, so a view is never drawn bare (or when it failed to load: unstyled beats absent).
 */
const sheets = {};
export function stylesheet(file) {
  sheets[file] ??= new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(`./${file}`, import.meta.url).href;
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
  return sheets[file];
}
