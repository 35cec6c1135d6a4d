//! The Model settings: each provider's defaults (from the wasm's `providers()`, never copied
//! here) shown as the fields' hints, the remembered API keys (`keys.js`), and the way in to Test
//! connection (`connection.js`).

import { t } from "./i18n.js";
import { state, controls, messageOf } from "./app.js";

/** The remembered keys' code (keys.js), loaded when a provider that calls a server is first chosen. */
let keyCode = null;
const keys = () =>
  (keyCode ??= import("./keys.js").catch((error) => {
    keyCode = null; // tried again at the next need
    throw error;
  }));

/**
 * Whether `provider` sends the task (and the key, when one is filled in) to a server: every one but
 * the offline model, You, the model in the tab and Chrome's own. A link may set such a run up but
 * never start it (main.js): the server is the link's choice, the Run the reader's.
 */
export const callsServer = (provider) => !["scripted", "human", "wllama", "chrome"].includes(provider);

/** The model in the tab's part of the panel (in-tab.js), loaded when that provider is chosen. */
let inTab = null;

/** Fills the key from this device's store (if the user opted in) and the fields' hints. */
export function useProvider(provider) {
  sayFooter(provider);
  if (provider === "wllama") {
    inTab ??= import("./in-tab.js").then((part) => (part.install(), part));
    inTab.then((part) => part.show()).catch((error) => controls.setConnection(messageOf(error), false));
    return;
  }
  inTab?.then((part) => part.hide());
  if (provider !== "scripted" && provider !== "human" && provider !== "chrome") import("./base-urls.js").then((part) => part.fill());
  const hints = state.providers.get(provider);
  if (!hints) return;
  document.querySelector("#baseUrl").placeholder = hints.baseUrl;
  document.querySelector("#model").placeholder = hints.model;
  // Not loaded (offline, say): no key is filled in, and the page goes on.
  return keys().then((part) => part.fillKey(provider), () => {});
}

/** The footer says what is true of the model chosen: offline, You, or a provider called from here. */
function sayFooter(provider) {
  const line = document.querySelector("[data-footer]");
  if (!line) return;
  const own = { scripted: "footer", human: "footer.human", wllama: "footer.local", chrome: "footer.chrome" };
  line.dataset.i18n = own[provider] ?? "footer.remote";
  line.textContent = t(line.dataset.i18n);
}

/**
 * Offers Chrome's built-in model where the browser has one it can use (the Prompt API exists,
 * and its model is not "unavailable" on this device); resolves once the menu says.
 */
export const chromeOffered = (async () => {
  const api = globalThis.LanguageModel;
  if (typeof api?.create !== "function") return false;
  // Asked with the language of its replies, which Chrome otherwise warns of at every load.
  const english = [{ type: "text", languages: ["en"] }];
  const availability = await api.availability({ expectedInputs: english, expectedOutputs: english }).catch(() => "unavailable");
  if (availability === "unavailable") return false;
  const option = document.createElement("option");
  option.value = "chrome";
  option.dataset.i18n = "provider.chrome";
  option.textContent = t("provider.chrome");
  document.querySelector('select[name="provider"] option[value="wllama"]')?.after(option);
  return true;
})();

export function install() {
  document.addEventListener("tao:provider", (e) => {
    useProvider(e.detail.provider);
    controls.setConnection("");
  });

  document.addEventListener("tao:key", (e) => {
    const { provider, apiKey, remember } = e.detail;
    const base = controls.settings().baseUrl;
    keys().then((part) => part.keyStore.save(provider, apiKey, remember, base), () => {});
  });
  // A Base URL typed in that is the remembered key's server brings the key.
  document.querySelector("#baseUrl")?.addEventListener("change", () => {
    const { provider, apiKey } = controls.settings();
    if (!apiKey && callsServer(provider)) keys().then((part) => part.fillKey(provider), () => {});
  });

  // Test connection's code comes with the first test (connection.js).
  document.addEventListener("tao:test", (e) => {
    if (!state.tao) return;
    import("./connection.js").then(
      (part) => part.testConnection(e.detail),
      (error) => controls.setConnection(messageOf(error), false),
    );
  });
}
