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
//!
//! `Agent` is the core's, with two things added: `provider: "chrome"` (Chrome's built-in model,
//! chrome.js); and used before the wasm is loaded, or after `free()`, it throws an Error that says so (`kind: "config"`) instead of what the generated glue
//! would throw there ("Cannot read properties of undefined", "null pointer passed to rust").

export * from "./tao_agent.js";
import coreInit, { Agent as CoreAgent, version } from "./tao_agent.js";
import { TaoAgent, fetchOfflineData } from "./tao-agent.js";
import { TaoTrajectory } from "./trajectory.js";
import { packaged } from "./packaged.js";
import { chromeConfig } from "./chrome.js";
export { TaoAgent, TaoTrajectory, fetchOfflineData };

/** The core's wasm, beside this file (named so that bundlers copy it: src/bindings/modules.rs). */
const BESIDE = new URL("./tao_agent_bg.wasm", import.meta.url);
const WASM = packaged(BESIDE);

/**
 * Loads the wasm core, once (the core's own `init`; by default `tao_agent_bg.wasm` beside this
 * file, or in the package's folder under Vite's dev server: packaged.js). Where even that is not
 * found under the dev server (the package installed under another name), the error says what to
 * set.
 */
export default function init(input) {
  return coreInit(input ?? { module_or_path: WASM }).catch((error) => {
    if (input !== undefined || WASM === BESIDE) throw error;
    const fix = 'Vite\'s dev server moved tao-agent into node_modules/.vite/deps/ without its wasm: add `optimizeDeps: { exclude: ["tao-agent"] }` to vite.config.js';
    throw Object.assign(new Error(`could not load tao's wasm from ${WASM.pathname} (${error?.message ?? error}); ${fix}`, { cause: error }), { kind: "config" });
  });
}
export { init };

/** The agents whose `free()` was called. */
const freed = new WeakSet();

/** The core's `Agent`, which says what is wrong when it is used too early or too late. */
export class Agent extends CoreAgent {
  constructor(config) {
    if (!loaded()) throw misuse("the wasm is not loaded yet: call `await init()` before `new Agent(…)`");
    // Chrome's built-in model is a model function of the package's (chrome.js).
    super(config?.provider === "chrome" ? chromeConfig(config) : config);
  }

  /** Releases the agent's memory in the wasm; once is enough (a second call does nothing). */
  free() {
    if (freed.has(this)) return;
    freed.add(this);
    super.free();
  }
}
// Every other method of the core's Agent, as it is, after a check that the agent was not freed (a
// freed agent would reach the wasm with no agent). Read from the class, so a method the core adds
// is covered too; wasm-bindgen's own `__`-prefixed helpers are left alone.
for (const name of Object.getOwnPropertyNames(CoreAgent.prototype)) {
  const method = CoreAgent.prototype[name];
  if (name === "constructor" || name === "free" || name.startsWith("__") || typeof method !== "function") continue;
  Object.defineProperty(Agent.prototype, name, {
    value: function (...args) {
      if (freed.has(this)) throw misuse(`this agent was freed (\`free()\`): make a new Agent to call ${name}() again`);
      return method.apply(this, args);
    },
    writable: true,
    configurable: true,
  });
}
if (Symbol.dispose) Agent.prototype[Symbol.dispose] = Agent.prototype.free;

/** Whether the wasm is loaded, by any of `init()`, `initSync()` or an element: a call into it works. */
function loaded() {
  try {
    version();
    return true;
  } catch {
    return false;
  }
}

/** An Error like the core's own: its message, and `kind`. */
function misuse(message) {
  return Object.assign(new Error(message), { kind: "config" });
}

if (typeof customElements !== "undefined") {
  if (!customElements.get("tao-trajectory")) customElements.define("tao-trajectory", TaoTrajectory);
  if (!customElements.get("tao-agent")) customElements.define("tao-agent", TaoAgent);
}
