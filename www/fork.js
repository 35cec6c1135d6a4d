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
import { state, controls, toolsPanel, view, stats, showError, showStatus, agentConfig, usedTools } from "./app.js";
import { pageAgent } from "./page-tools.js";
import { follow } from "./follow.js";
import { drive, withAgent, failed, humanModel } from "./drive.js";
import { toolCalls } from "./step.js";

// The fork's words in English, added to the page's dictionary when it first loads, so the first
// load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese loads).
addWords({
  en: {
    "fork.note.thought": "The thought was edited by hand for this fork.",
    "fork.note.action": "The action was edited by hand for this fork; what follows comes of the edited action.",
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
  // The step's first tool call: the one a fork edits.
  const own = toolCalls(step)[0];
  if (!own && edit.kind !== "thought") throw new Error(`step ${index} made no tool call`);
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
      Object.assign(own, { action: { tool: String(edit.tool), input: edit.input }, observation: null, repair: null, approved: null, fuel: null, ms: 0, picture: null });
      step.answer = null;
      step.repair = null;
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

/**
 * The agent for a fork: the page's settings, in the trajectory's own format and language (You
 * reply in `forkView`).
 */
function forkAgentConfig(traj, settings, panel, forkView) {
  const config = agentConfig(settings, panel, forkView);
  if (["mrkl", "paper", "tools", "auto", "act", "cot", "standard"].includes(traj.react_format)) config.format = traj.react_format;
  // You reply in the fork's view, shown an example in the trajectory's format.
  if (settings.provider === "human") config.model = humanModel(forkView, { format: config.format, tools: usedTools(panel) });
  if (traj.lang) config.lang = traj.lang;
  // The scripted model plays only its own scenario's question: use the one that made the run.
  const scripted = /^scripted:(.+)$/.exec(traj.model ?? "");
  if (scripted && settings.provider === "scripted") config.scenario = scripted[1];
  return config;
}

/** Shows both branches, moving the page's view into a `<tao-branches>` beside `forkView` if not there yet. */
async function openBranches(forkView) {
  if (!branches) {
    await define("tao-branches");
    // Two trajectories side by side want the width: the settings fold away (a button brings
    // them back), as a presenter would do by hand.
    if (window.matchMedia("(min-width: 1200px)").matches) setFolded(true);
    branches = document.createElement("tao-branches");
    branches.className = "branches";
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
  let traj;
  try {
    // Read back by the core, so its stats count the steps it keeps: the counters go on from there.
    traj = state.tao.parseTrajectory(JSON.stringify(forkAt(source.trajectory, index, edit)));
  } catch (e) {
    return showError(failed(e, "error.fork"));
  }
  const settings = controls.settings();
  const panel = toolsPanel.settings();
  // The fork's view (where You reply, when You play the model): the branches' own, or a new one.
  const forkView = branches?.view("fork") ?? Object.assign(document.createElement("tao-trajectory"), { className: "trajectory" });
  try {
    await withAgent(pageAgent(forkAgentConfig(traj, settings, panel, forkView), panel), (agent) => {
      if (!state.running) return runFork(agent, source, index, traj, forkView); // else a run began meanwhile
    });
  } catch (e) {
    showError(failed(e, "error.fork"));
  }
}

/** Shows the branches, and runs the fork `traj` (from `source`'s step `index`) into `forkView`. */
async function runFork(agent, source, index, traj, forkView) {
  showError("");
  // Forking from the fork replaces it; the original stays the original.
  if (source === view) kept.original = source.trajectory;
  // Moving the view into the branches loses the focus (on the Edit button): side by side it
  // goes back there; as tabs, to the fork's tab, which is shown.
  const active = document.activeElement;
  const box = await openBranches(forkView);
  const tabs = box.dataset.layout === "tabs";
  if (!tabs && active?.isConnected && document.activeElement !== active) active.focus({ preventScroll: true });
  kept.fork = null;
  box.setFrom(index);
  box.setOutcome("original", outcome(kept.original));
  box.setOutcome("fork", { running: true });
  box.setRunning(true);
  box.select("fork", { focus: tabs });
  forkView.continueFrom(traj);
  showStatus("fork.started", { n: index });

  state.running = new AbortController();
  controls.setRunning(true);
  let result = traj;
  try {
    const options = { view: forkView, signal: state.running.signal, onEvent: follow, onCounts: (counts) => stats.live(counts) };
    result = await drive(agent, "resume", traj, options);
    if (result.stop?.reason === "error" && result.stop.message) showError(failed(result.stop.message, "error.fork"));
  } catch (e) {
    showError(failed(e, "error.fork"));
  } finally {
    state.running = null;
    controls.setRunning(false);
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

  // A new run (heard after run.js, which ignores it while a fork runs) uses the single view;
  // a comparison (compare.js has it while comparing) leaves the branches as they are, to
  // come back to.
  document.addEventListener("tao:run", () => {
    if (!state.running && !state.compare) closeBranches(null);
  });

  // A file imported (files.js has drawn it into the view, then says so) replaces both branches;
  // a file that could not be read leaves them as they were.
  document.addEventListener("tao:imported", () => {
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
