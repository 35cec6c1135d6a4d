//! Export JSONL (the rating bar's button, rate.js): every run kept this visit as training data,
//! one JSON line each. The page loads this module at the first export.

import { t, addWords } from "./i18n.js";
import { state, controls, toolsPanel, showStatus, showError, messageOf, agentConfig, newAgent } from "./app.js";
import { registerPageTools } from "./page-tools.js";
import { download } from "./files.js";

// Export JSONL's words in English, added to the page's dictionary when it first loads, so the first
// load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese loads).
addWords({
  en: {
    "runs.exported": "Exported {n} runs as JSONL.",
    "error.export": "Could not export:",
  },
});

/**
 * Every kept run as a JSONL line. Each step's prompt is rendered again by an agent with the page's
 * tools in the run's own format and language (the offline model: it is never called), as the
 * Prompt view does: a trajectory records what happened, the agent knows how it was shown.
 */
export async function exportRuns() {
  if (!state.tao || !state.runs.length) return showStatus(t("status.nothingToExport"));
  const panel = toolsPanel.settings();
  const lines = [];
  for (const { trajectory, extra } of state.runs) {
    let agent;
    try {
      const config = agentConfig({ ...controls.settings(), provider: "scripted" }, panel);
      agent = await newAgent({ ...config, format: trajectory.react_format, lang: trajectory.lang });
      await registerPageTools(agent, panel);
      const reward = trajectory.reward ?? extra.reward ?? null;
      lines.push(JSON.stringify(agent.trainingRecord(trajectory, { ...extra, reward })));
    } catch (e) {
      return showError(`${t("error.export")} ${messageOf(e)}`);
    } finally {
      agent?.free?.();
    }
  }
  download("tao-runs.jsonl", lines.join("\n") + "\n", "application/x-ndjson");
  showStatus(t("runs.exported").replace("{n}", String(lines.length)));
}
