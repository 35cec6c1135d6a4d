//! The Model settings: each provider's defaults (from the wasm's `providers()`, never copied
//! here) shown as the fields' hints, the API key's opt-in storage, and Test connection.

import { t } from "./i18n.js";
import { state, controls, messageOf, agentConfig, dataFor } from "./app.js";

/**
 * The key lives in the form (memory) only. "Remember on this device" is an explicit opt-in that
 * copies it to localStorage, one entry per provider; unticking it deletes the entry.
 */
const keyStore = {
  name: (provider) => `tao.apiKey.${provider}`,
  load(provider) {
    try {
      return localStorage.getItem(this.name(provider));
    } catch {
      return null; // storage disabled: nothing remembered
    }
  },
  save(provider, key, remember) {
    try {
      if (remember && key) localStorage.setItem(this.name(provider), key);
      else localStorage.removeItem(this.name(provider));
    } catch {
      /* storage disabled: the key stays in memory only */
    }
  },
};

/** Fills the key from this device's store (if the user opted in) and the fields' hints. */
export function useProvider(provider) {
  const hints = state.providers.get(provider);
  if (!hints) return;
  document.querySelector("#baseUrl").placeholder = hints.baseUrl;
  document.querySelector("#model").placeholder = hints.model;
  const saved = keyStore.load(provider);
  controls.apply({ apiKey: saved ?? "", remember: saved !== null });
}

/** Asks the provider for a tiny reply and shows what came back: latency, streaming, tokens. */
async function testConnection(settings) {
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
    controls.setConnection(messageOf(err), false);
  }
}

export function install() {
  document.addEventListener("tao:provider", (e) => {
    useProvider(e.detail.provider);
    controls.setConnection("");
  });

  document.addEventListener("tao:key", (e) => keyStore.save(e.detail.provider, e.detail.apiKey, e.detail.remember));

  document.addEventListener("tao:test", (e) => {
    if (state.tao) testConnection(e.detail);
  });
}
