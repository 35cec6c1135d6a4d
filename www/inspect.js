//! The Prompt inspector's part: a step's Prompt button (`tao:prompt`, from `<tao-trajectory>`)
//! opens `<tao-prompt>` with the exact request that step was sent and the request of the step
//! before it, so the dialog can show what the step added.
//!
//! Both prompts are rendered by the wasm (`agent.promptAt`) from `state.lastTrajectory`, the
//! trajectory on screen: the prompt is never kept as a second copy of history. The format and
//! language come from the trajectory itself; the tool descriptions from the tools enabled now,
//! as when a run starts (`run.js` makes its agent the same way). The throwaway agent always
//! uses the scripted model: rendering a prompt calls no model, so no key is handed to it.

import { t } from "./i18n.js";
import { define } from "./elements.js";
import { state, controls, toolsPanel, showError, messageOf, agentConfig } from "./app.js";
import { pageAgent } from "./page-tools.js";
import { withAgent } from "./drive.js";

/** The inspector, added to the page the first time a Prompt button is pressed. */
let inspector = null;

async function dialog() {
  await define("tao-prompt");
  if (!inspector) {
    inspector = document.createElement("tao-prompt");
    document.body.append(inspector);
  }
  return inspector;
}

/**
 * The format step `index` was sent in: the trajectory's, unless a later step switched
 * (`auto` falling back to text ReAct), in which case it was the format switched from.
 */
function formatAt(traj, index) {
  const later = (traj.steps ?? []).find((s) => s.index > index && s.switch);
  return later ? later.switch.from : traj.react_format;
}

/** The in-tab engine's grammar for step `index` (its module, loaded for it). */
async function grammarOf(format, index, enabled) {
  const tools = format === "cot" || format === "standard" ? [] : enabled;
  return (await import("../pkg/tao_wllama.js")).grammar({ format, step: index, tools });
}

/** Opens the inspector on step `index`'s prompt; `opener` gets the focus back when it closes. */
export async function inspect(index, opener) {
  const traj = state.lastTrajectory;
  // A step of the trajectory, or (while a run is paused before its next model call) the step
  // about to be sent: its prompt is known, its reply not yet.
  const last = (traj?.steps ?? []).length + (traj?.stop ? 0 : 1);
  if (!state.tao || !traj || !(index >= 1 && index <= last)) return;
  const panel = toolsPanel.settings();
  const config = agentConfig({ ...controls.settings(), provider: "scripted" }, panel);
  // A model in the tab (or Chrome's) was held to the format, with mrkl's worked example: the
  // prompt is rendered as it was sent.
  const constrained = /^(wllama:|js:chrome$)/.test(traj.model ?? "");
  if (constrained) config.constrained = true;
  try {
    const [prompt, previous] = await withAgent(pageAgent(config, panel, traj), (agent) => [
      agent.promptAt(traj, index),
      index > 1 ? agent.promptAt(traj, index - 1) : null,
    ]);
    const step = traj.steps.find((s) => s.index === index);
    // The summary the prompt shows in place of the oldest steps: the latest written before it.
    const summary = (traj.memos ?? []).filter((m) => m.kind === "summary" && m.after < index).at(-1) ?? null;
    const format = formatAt(traj, index);
    const grammar = constrained && traj.model.startsWith("wllama:") ? await grammarOf(format, index, panel.enabled) : null;
    (await dialog()).show({ index, prompt, previous, step, summary, format, grammar }, opener);
  } catch (e) {
    showError(`${t("prompt.error")} ${messageOf(e)}`);
  }
}
