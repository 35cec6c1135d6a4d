//! Export JSONL (the rating bar's button, rate.js): every run kept this visit as training data,
//! one JSON line each. The page loads this module at the first export.

import { t, addWords } from "./i18n.js";
import { state, controls, toolsPanel, showStatus, showError, messageOf, agentConfig } from "./app.js";
import { pageAgent } from "./page-tools.js";
import { withAgent } from "./drive.js";
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
  if (!state.tao || !state.runs.length) return showStatus("status.nothingToExport");
  const panel = toolsPanel.settings();
  const lines = [];
  for (const { trajectory, extra } of state.runs) {
    const config = { ...agentConfig({ ...controls.settings(), provider: "scripted" }, panel), format: trajectory.react_format, lang: trajectory.lang };
    const reward = trajectory.reward ?? extra.reward ?? null;
    try {
      const record = await withAgent(pageAgent(config, panel), (agent) => agent.trainingRecord(trajectory, { ...extra, reward }));
      lines.push(JSON.stringify(record));
    } catch (e) {
      return showError(`${t("error.export")} ${messageOf(e)}`);
    }
  }
  download("tao-runs.jsonl", lines.join("\n") + "\n", "application/x-ndjson");
  showStatus("runs.exported", { n: lines.length });
}
