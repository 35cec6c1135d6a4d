//! The run: makes an `Agent` from the form and the tools panel, hands its events to
//! `<tao-trajectory>` and `<tao-stats>` as it streams, and Stop aborts it. When the run resolves,
//! the returned trajectory is drawn again from scratch: it is the single source of truth, the
//! same object that Export writes and Import reads.

import { t } from "./i18n.js";
import { state, controls, toolsPanel, view, stats, showError, showStatus, messageOf, agentConfig } from "./app.js";
import { registerPageTools } from "./page-tools.js";
import { follow } from "./follow.js";

function modelLabel(settings) {
  if (settings.provider === "scripted") return `scripted:${settings.scenario}`;
  return `${settings.provider}:${settings.model || state.providers.get(settings.provider)?.model || ""}`;
}

export async function run(settings) {
  if (state.running || !state.tao) return;
  showError("");
  showStatus("");
  let agent;
  const panel = toolsPanel.settings();
  try {
    agent = new state.tao.Agent(agentConfig(settings, panel));
    await registerPageTools(agent, panel);
  } catch (e) {
    showError(`${t("error.run")} ${messageOf(e)}`);
    agent?.free?.();
    return;
  }

  state.running = new AbortController();
  controls.setRunning(true);
  view.begin(settings.task, { model: modelLabel(settings), format: settings.format, lang: settings.lang });

  // Live counters; the finished trajectory's stats replace them.
  const live = { n_calls: 0, n_badcalls: 0, steps: 0, elapsed: 0 };
  const t0 = performance.now();
  stats.live(live);
  const timer = setInterval(() => stats.live({ elapsed: performance.now() - t0 }), 100);

  const onEvent = (ev) => {
    if (ev.type === "step") {
      live.steps = ev.index;
    } else if (ev.type === "call") {
      live.n_calls += 1;
      if (ev.retry) live.n_badcalls += 1; // asked again: the previous reply could not be read
    } else if (ev.type === "repair") {
      live.n_badcalls += 1;
    }
    view.handleEvent(ev);
    if (ev.type !== "token") stats.live({ ...live, elapsed: performance.now() - t0 });
    follow();
  };

  try {
    const signal = state.running.signal;
    const approve = (request) => view.askApproval(request, signal);
    const traj = await agent.run(settings.task, { onEvent, signal, approve });
    state.lastTrajectory = traj;
    view.render(traj);
    stats.show(traj.stats, traj.stop);
    if (traj.stop?.reason === "error" && traj.stop.message) showError(`${t("error.run")} ${traj.stop.message}`);
  } catch (e) {
    showError(`${t("error.run")} ${messageOf(e)}`);
    stats.show({ ...live, elapsed_ms: performance.now() - t0 }, { reason: "error" });
  } finally {
    clearInterval(timer);
    state.running = null;
    controls.setRunning(false);
    try {
      agent.free?.();
    } catch {
      /* already freed */
    }
  }
}

export function install() {
  document.addEventListener("tao:run", (e) => run(e.detail));

  document.addEventListener("tao:stop", () => state.running?.abort());

  document.addEventListener("tao:lang", () => {
    if (!state.tao || state.running) return; // the live view keeps its labels until the run ends
    if (state.lastTrajectory) view.render(state.lastTrajectory);
    else view.showEmpty();
  });
}
