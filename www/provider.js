//! The Model settings: each provider's defaults (from the wasm's `providers()`, never copied
//! here) shown as the fields' hints, the API key's opt-in storage, and the way in to Test
//! connection (`connection.js`).

import { t } from "./i18n.js";
import { state, controls, messageOf } from "./app.js";

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
  sayFooter(provider);
  const hints = state.providers.get(provider);
  if (!hints) return;
  document.querySelector("#baseUrl").placeholder = hints.baseUrl;
  document.querySelector("#model").placeholder = hints.model;
  const saved = keyStore.load(provider);
  controls.apply({ apiKey: saved ?? "", remember: saved !== null });
}

/** The footer says what is true of the model chosen: offline, You, or a provider called from here. */
function sayFooter(provider) {
  const line = document.querySelector("[data-footer]");
  if (!line) return;
  line.dataset.i18n = provider === "scripted" ? "footer" : provider === "human" ? "footer.human" : "footer.remote";
  line.textContent = t(line.dataset.i18n);
}

export function install() {
  document.addEventListener("tao:provider", (e) => {
    useProvider(e.detail.provider);
    controls.setConnection("");
  });

  document.addEventListener("tao:key", (e) => keyStore.save(e.detail.provider, e.detail.apiKey, e.detail.remember));

  // Test connection's code comes with the first test (connection.js).
  document.addEventListener("tao:test", (e) => {
    if (!state.tao) return;
    import("./connection.js").then(
      (part) => part.testConnection(e.detail),
      (error) => controls.setConnection(messageOf(error), false),
    );
  });
}
