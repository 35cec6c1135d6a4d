//! The package's main entry: the core (`Agent`, `scenarios`, `parseTrajectory`, …, and `init`,
//! which loads the wasm) and the two elements, registered on import:
//!
//! - `<tao-agent>` (tao-agent.js): an agent with a task box; it loads the wasm itself.
//! - `<tao-trajectory>` (trajectory.js): draws a trajectory, for pages that drive `Agent`
//!   themselves (`handleEvent(ev)` while a run streams, `render(trajectory)` when it ends).
//!
//! The classes are exported too: `customElements.define("my-agent", class extends TaoAgent {})`
//! registers the element under another name as well. So is `fetchOfflineData()`, which loads
//! the scenarios, the offline `search`'s pages and the Chinese prompts (not in the wasm) for a
//! page that uses `Agent`.

export * from "./tao_agent.js";
export { default, default as init } from "./tao_agent.js";
import { TaoAgent, fetchOfflineData } from "./tao-agent.js";
import { TaoTrajectory } from "./trajectory.js";
export { TaoAgent, TaoTrajectory, fetchOfflineData };

if (typeof customElements !== "undefined") {
  if (!customElements.get("tao-trajectory")) customElements.define("tao-trajectory", TaoTrajectory);
  if (!customElements.get("tao-agent")) customElements.define("tao-agent", TaoAgent);
}
