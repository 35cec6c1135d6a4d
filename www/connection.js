//! Test connection (the Model settings' button): asks the provider for a tiny reply and shows what
//! came back. The page loads this module at the first test (provider.js).

import { t, addWords } from "./i18n.js";
import { state, controls, agentConfig, dataFor } from "./app.js";
import { explained } from "./explain.js";

// Test connection's words in English, added to the page's dictionary when it first loads, so the
// first load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese
// loads).
addWords({
  en: {
    "test.running": "Testing…",
    "test.ok": "Connected:",
    "test.firstToken": "first token",
    "test.total": "total",
    "test.streamed": "streamed",
    "test.notStreamed": "not streamed",
  },
});

/** Asks the provider for a tiny reply and shows what came back: latency, streaming, tokens. */
export async function testConnection(settings) {
  controls.setConnection(t("test.running"));
  try {
    const config = agentConfig(settings);
    await dataFor(config); // the settings are read whole, the scenario's too
    const r = await state.tao.testConnection(config);
    const parts = [`${t("test.ok")} ${r.model}: “${r.reply.trim().slice(0, 60)}”`];
    if (r.first_token_ms !== null) parts.push(`${t("test.firstToken")} ${Math.round(r.first_token_ms)} ms`);
    parts.push(`${t("test.total")} ${Math.round(r.total_ms)} ms`);
    parts.push(r.deltas > 1 ? `${t("test.streamed")} (${r.deltas})` : t("test.notStreamed"));
    if (r.usage) parts.push(`${r.usage.prompt_tokens} + ${r.usage.completion_tokens} ${t("usage.tokens")}`);
    for (const note of r.notes) parts.push(note);
    controls.setConnection(parts.join(" · "), true);
  } catch (err) {
    controls.setConnection(explained(err), false);
  }
}
