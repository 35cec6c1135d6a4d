//! Edit and fork: a step edited in a finished trajectory (the `tao:fork` event of
//! `<tao-trajectory>`'s Edit → Fork from here) becomes a new trajectory — the steps up to the
//! edited one, with the edit — that the agent resumes from, while the original is kept. Both are
//! shown in `<tao-branches>`, with their answers compared.
//!
//! The fork is plain data: `forkAt` copies the trajectory and applies the edit, and
//! `agent.resume(fork)` goes on from it like from any other trajectory (the prompt is rendered
//! from the trajectory, so the model reads the edit). Offline, the scripted model's rules read
//! the observations, so an edited observation visibly changes its course.
//!
//! The page's single view (`view` in `app.js`) stays the original: on a fork it moves into a
//! `<tao-branches>` next to a new view for the fork, and moves back when one branch is kept, a
//! new run starts, or a file is imported. Export writes the selected branch (`state.lastTrajectory`).
//!
//! The page loads this module at the first fork (`forking` in main.js, which decides whether one
//! may fork now); from then on it also listens for what the branches need.

import { setFolded } from "./present.js";
import { define } from "./elements.js";
import { t, addWords } from "./i18n.js";
import { state, controls, toolsPanel, view, stats, showError, showStatus, messageOf, agentConfig, newAgent } from "./app.js";
import { registerPageTools } from "./page-tools.js";
import { follow } from "./follow.js";
import { toolCalls } from "./step.js";

// The fork's words in English, added to the page's dictionary when it first loads, so the first
// load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese loads).
addWords({
  en: {
    "fork.note.thought": "The thought was edited by hand for this fork.",
    "fork.note.action": "The action was edited by hand for this fork; the tool ran again.",
    "fork.note.observation": "The observation was edited by hand for this fork; the tool did not say this.",
    "fork.started": "Forked from step {n}: the original is kept.",
  },
});

/** The `<tao-branches>` on the page while there is a fork, else null. */
let branches = null;
/** The two trajectories being compared: `{ original, fork }` (fork null while it runs). */
const kept = { original: null, fork: null };

/**
 * The fork of `traj` at step `index` with `edit` applied, as a new trajectory (`traj` is not
 * changed): steps 1…index, with `stop` cleared so the agent goes on.
 *
 * - observation `{ text }`: the action is kept, its observation replaced (and a repair cleared:
 *   the new text is what the model reads);
 * - thought `{ text }`: the action and observation (or the answer) are kept;
 * - action `{ tool, input }`: replaced, with no observation yet, so the tool runs again.
 *
 * The edited step gets a note saying so (notes are for the reader; the model never sees them).
 */
export function forkAt(traj, index, edit) {
  const fork = structuredClone(traj);
  fork.steps = (fork.steps ?? []).filter((s) => s.index <= index);
  const step = fork.steps.at(-1);
  if (!step || step.index !== index) throw new Error(`the trajectory has no step ${index}`);
  fork.stop = null;
  // The step's own tool call (the step itself in today's file: see step.js).
  const own = toolCalls(step)[0];
  switch (edit.kind) {
    case "observation":
      own.observation = String(edit.text);
      own.repair = null;
      break;
    case "thought":
      step.thought = String(edit.text);
      // A step that answered still answers: the fork is complete as it stands.
      if (step.answer !== null && step.answer !== undefined) fork.stop = { reason: "answer", message: null };
      break;
    case "action":
      Object.assign(own, { action: { tool: String(edit.tool), input: edit.input }, observation: null, repair: null, approved: null, fuel: null, tool_ms: 0 });
      step.answer = null;
      break;
    default:
      throw new Error(`cannot edit a step's ${edit.kind}`);
  }
  step.notes = [...(step.notes ?? []), t(`fork.note.${edit.kind}`)];
  // Written from the steps when the fork is returned; until then, never the original's answer.
  fork.answer = step.answer ?? null;
  return fork;
}

/** What the summary says of a trajectory: its answer, or why it has none. */
function outcome(traj) {
  const answer = traj?.steps?.findLast((s) => s.answer !== null && s.answer !== undefined)?.answer ?? traj?.answer ?? null;
  return { answer, reason: traj?.stop?.reason };
}

/** The agent for a fork: the page's settings, in the trajectory's own format and language. */
function forkAgentConfig(traj, settings, panel) {
  const config = agentConfig(settings, panel);
  if (["mrkl", "paper", "tools", "auto", "act", "cot", "standard"].includes(traj.react_format)) config.format = traj.react_format;
  if (traj.lang) config.lang = traj.lang;
  // The scripted model plays only its own scenario's question: use the one that made the run.
  const scripted = /^scripted:(.+)$/.exec(traj.model ?? "");
  if (scripted && settings.provider === "scripted") config.scenario = scripted[1];
  return config;
}

/** Shows both branches, moving the page's view into a `<tao-branches>` if not there yet. */
async function openBranches() {
  if (!branches) {
    await define("tao-branches");
    // Two trajectories side by side want the width: the settings fold away (a button brings
    // them back), as a presenter would do by hand.
    if (window.matchMedia("(min-width: 1200px)").matches) setFolded(true);
    branches = document.createElement("tao-branches");
    branches.className = "branches";
    const forkView = document.createElement("tao-trajectory");
    forkView.className = "trajectory";
    view.replaceWith(branches);
    branches.hold(view, forkView);
  }
  return branches;
}

/** Back to one trajectory: the page's view, showing `traj`. */
function closeBranches(traj) {
  if (!branches) return;
  branches.replaceWith(view);
  branches = null;
  kept.original = kept.fork = null;
  if (traj) {
    if (view.trajectory !== traj) view.render(traj);
    state.lastTrajectory = traj;
    stats.show(traj.stats, traj.stop);
  }
}

/** Export and the stats bar follow the selected branch (the bar counts the fork while it runs). */
function useSelected() {
  const traj = kept[branches?.selected];
  if (!traj) return;
  state.lastTrajectory = traj;
  if (!state.running) stats.show(traj.stats, traj.stop);
}

async function fork(source, index, edit) {
  const base = source.trajectory;
  let traj;
  try {
    traj = forkAt(base, index, edit);
  } catch (e) {
    showError(`${t("error.fork")} ${messageOf(e)}`);
    return;
  }
  const settings = controls.settings();
  const panel = toolsPanel.settings();
  let agent;
  try {
    agent = await newAgent(forkAgentConfig(traj, settings, panel));
    await registerPageTools(agent, panel);
  } catch (e) {
    showError(`${t("error.fork")} ${messageOf(e)}`);
    agent?.free?.();
    return;
  }
  if (state.running) return agent.free?.(); // a run began meanwhile

  showError("");
  // Forking from the fork replaces it; the original stays the original.
  if (source === view) kept.original = base;
  // Moving the view into the branches loses the focus (on the Edit button): side by side it
  // goes back there; as tabs, to the fork's tab, which is shown.
  const active = document.activeElement;
  const box = await openBranches();
  const tabs = box.dataset.layout === "tabs";
  if (!tabs && active?.isConnected && document.activeElement !== active) active.focus({ preventScroll: true });
  const forkView = box.view("fork");
  kept.fork = null;
  box.setFrom(index);
  box.setOutcome("original", outcome(kept.original));
  box.setOutcome("fork", { running: true });
  box.setRunning(true);
  box.select("fork", { focus: tabs });
  forkView.continueFrom(traj);
  showStatus(t("fork.started").replace("{n}", index));

  state.running = new AbortController();
  controls.setRunning(true);
  const live = { n_calls: 0, n_badcalls: 0, steps: traj.steps.length, elapsed: 0 };
  const t0 = performance.now();
  stats.live(live);
  const onEvent = (ev) => {
    if (ev.type === "step") live.steps = ev.index;
    else if (ev.type === "call") live.n_calls += 1;
    else if (ev.type === "repair") live.n_badcalls += 1;
    forkView.handleEvent(ev);
    if (ev.type !== "token") stats.live({ ...live, elapsed: performance.now() - t0 });
    follow();
  };
  let result = traj;
  try {
    const signal = state.running.signal;
    const approve = (request) => forkView.askApproval(request, signal);
    result = await agent.resume(traj, { onEvent, signal, approve });
    if (result.stop?.reason === "error" && result.stop.message) showError(`${t("error.fork")} ${result.stop.message}`);
  } catch (e) {
    showError(`${t("error.fork")} ${messageOf(e)}`);
  } finally {
    state.running = null;
    controls.setRunning(false);
    try {
      agent.free?.();
    } catch {
      /* already freed */
    }
  }
  kept.fork = result;
  forkView.render(result);
  if (branches === box) {
    box.setRunning(false);
    box.setOutcome("fork", outcome(result));
    useSelected();
  }
}

/**
 * Forks `source`'s trajectory at step `index` with `edit` and runs the fork: the page's way in
 * (main.js) loads this module at the first `tao:fork`, having checked that one may fork now. The
 * first call also starts listening for what the branches need.
 */
export function start(source, index, edit) {
  if (!listening) listen();
  return fork(source, index, edit);
}

let listening = false;

function listen() {
  listening = true;
  document.addEventListener("tao:branch", useSelected);

  document.addEventListener("tao:keep", (e) => closeBranches(kept[e.detail.branch]));

  // A new run (heard after run.js, which ignores it while a fork runs) uses the single view.
  document.addEventListener("tao:run", () => {
    if (!state.running) closeBranches(null);
  });

  // A file imported (files.js has drawn it into the view) replaces both branches; a file that
  // could not be read leaves them as they were.
  document.addEventListener("tao:import", () => {
    if (branches && state.lastTrajectory && state.lastTrajectory !== kept[branches.selected]) {
      closeBranches(null);
    }
  });

  // run.js redraws the view from `state.lastTrajectory` (the selected branch): draw each
  // branch again from its own trajectory, in the new words.
  document.addEventListener("tao:lang", () => {
    if (!branches) return;
    branches.refresh();
    if (kept.original) view.render(kept.original);
    if (kept.fork) branches.view("fork").render(kept.fork);
  });
}
