//! The run, and the studio's controls over it: Run, Step, Pause, Resume, Stop.
//!
//! A run is a *session*: an `Agent` made from the form and the tools panel, and the trajectory
//! as far as it has come. The agent works in stretches: `resume` goes on until the run ends or
//! Pause is pressed, `next` goes to the next pause point (before a model call, or before a tool
//! call: the two places a step can stop). Between stretches the session is paused, and the
//! trajectory is drawn as it stands, with a card saying what comes next: the prompt about to be
//! sent, or the tool call about to run. The trajectory is the single source of truth: each
//! stretch starts from it and returns it, and what is drawn at a pause or at the end is drawn
//! from it, the same object that Export writes and Import reads.

import { state, controls, toolsPanel, view, stats, showError, showStatus, messageOf, agentConfig, modelOf } from "./app.js";
import { pageAgent } from "./page-tools.js";
import { follow } from "./follow.js";
import { offlineMismatch } from "./offline.js";
import { drive, free, failed } from "./drive.js";
import { toolCalls } from "./step.js";

/** The session on screen: `{agent, settings, trajectory, busy}`, or null when idle. */
let session = null;

/**
 * A new session from the form: its agent, and the trajectory paused before the first step. The
 * agent lives as long as the session, over its stretches (Step, Resume): `close` frees it.
 */
async function open(settings) {
  if (session || !state.tao) return null;
  showError("");
  showStatus("");
  if (await offlineMismatch(settings)) return null; // says so, and offers another model
  // The model in the tab: asks before it downloads one (or says what the browser lacks).
  if (settings.provider === "wllama" && !(await (await import("./in-tab.js")).ready(settings.model))) return null;
  let agent;
  const panel = toolsPanel.settings();
  try {
    agent = await pageAgent(agentConfig(settings, panel), panel);
    session = { agent, settings, trajectory: agent.start(settings.task), busy: null };
  } catch (e) {
    showError(failed(e));
    free(agent);
    return null;
  }
  view.begin(settings.task, { model: modelOf(settings), format: settings.format, lang: settings.lang });
  return session;
}

/** Runs the session's agent for one stretch (`next` or `resume`), streaming into the view. */
async function stretch(how) {
  const s = session;
  if (!s || s.busy) return;
  const stop = new AbortController();
  const pause = new AbortController();
  s.busy = { stop, pause };
  state.running = stop;
  controls.setRunning("running");
  // "Paused…" is no longer true (the stats bar says "running…").
  showStatus("");
  view.hidePause();
  view.toggleAttribute("data-live", true);

  // The counts go on from where the trajectory stands; the returned trajectory's stats replace them.
  let counts = {};
  const options = { view, signal: stop.signal, pause: pause.signal, onEvent: follow, onCounts: (c) => stats.live((counts = c)) };
  try {
    const traj = await drive(s.agent, how, s.trajectory, options);
    s.trajectory = traj;
    state.lastTrajectory = traj;
    if (traj.stop) {
      end(traj);
    } else {
      paused(traj);
    }
  } catch (e) {
    showError(failed(e));
    stats.show({ ...counts, elapsed_ms: counts.elapsed }, { reason: "error" });
    close();
  } finally {
    s.busy = null;
    state.running = null;
    // A model in the tab may be kept in the browser now: the Model panel lists it.
    if (s.settings.provider === "wllama") import("./in-tab.js").then((part) => part.show());
  }
}

/** Between stretches: the trajectory as it stands, and what the next press of Step does. */
function paused(traj) {
  // Drawn as a live view: no Edit buttons on a run that is still going (fork once it ends).
  view.render(traj, { live: true });
  const last = traj.steps.at(-1);
  // The tool call about to run: the step's own, or one made beside it in the same reply.
  let drawn;
  const waiting = last && toolCalls(last).find((c) => c.action && c.observation == null);
  if (waiting) {
    drawn = view.showPause({ kind: "tool", index: last.index, tool: waiting.action.tool, input: waiting.action.input });
  } else {
    let messages = [];
    try {
      messages = Array.from(session.agent.promptAt(traj).messages);
    } catch (e) {
      showError(messageOf(e));
    }
    drawn = view.showPause({ kind: "model", index: traj.steps.length + 1, messages });
  }
  stats.show(traj.stats, { reason: "paused" });
  controls.setRunning("paused");
  showStatus("status.paused");
  // Stepping with the card's own buttons: the focus stays there, on the new card's Step.
  drawn.then(() => {
    if (viaCard) view.querySelector('[data-pause-action="step"]')?.focus({ preventScroll: true });
    follow();
  });
}

/** Whether the last Step or Resume was pressed on the pause card (not in the form). */
let viaCard = false;

/** The run ended: draw it from the returned trajectory, and end the session. */
function end(traj) {
  showStatus(""); // not "Paused…" any more: the stats bar says how it ended
  view.render(traj);
  stats.show(traj.stats, traj.stop);
  if (traj.stop?.reason === "error" && traj.stop.message) showError(failed(traj.stop.message));
  close();
}

function close() {
  free(session?.agent);
  session = null;
  controls.setRunning(false);
}

/** Run: a new session that goes on to the end (unless paused). */
export async function run(settings) {
  if (await open(settings)) await stretch("resume");
}

/** Step: a new session paused before its first model call, or one pause point further. */
async function step(settings) {
  if (session?.busy) return;
  if (!session) {
    if (await open(settings)) paused(session.trajectory);
    return;
  }
  await stretch("next");
}

/** Stop: ends a running stretch at once, or ends a paused session where it stands. */
function stop() {
  // A run that is not a session of this part (a fork, in `fork.js`) stops through `state.running`.
  if (!session) return state.running?.abort();
  if (session.busy) {
    session.busy.stop.abort();
    return;
  }
  const traj = { ...session.trajectory, stop: { reason: "aborted", message: null } };
  state.lastTrajectory = traj;
  end(traj);
}

export function install() {
  // While comparing modes, Run and Step are compare.js's.
  document.addEventListener("tao:run", (e) => state.compare || run(e.detail));
  const fromCard = (e) => (viaCard = Boolean(e.target.closest?.('[data-kind="pause"]')));
  document.addEventListener("tao:step", (e) => state.compare || (fromCard(e), step(e.detail ?? controls.settings())));
  document.addEventListener("tao:pause", () => session?.busy?.pause.abort());
  document.addEventListener("tao:resume", (e) => (fromCard(e), stretch("resume")));
  document.addEventListener("tao:stop", stop);

  document.addEventListener("tao:lang", () => {
    if (!state.tao || state.running) return; // the live view keeps its labels until the run ends
    if (session) paused(session.trajectory);
    else if (state.lastTrajectory) view.render(state.lastTrajectory);
    else view.showEmpty();
  });
}
