// @ts-check
//! The ask page's script: it wires the settings form to the page's `<tao-agent>`.
//!
//! The element does the work (it loads the wasm, runs the agent, searches `docs.json` with
//! `search_docs`, draws the trajectory); this file only turns the form into the element's
//! settings. Provider, base URL and model become attributes; the API key becomes the `apiKey`
//! property, which lives in memory only: an attribute would sit in the DOM for any script to
//! read. The key is never stored, and never in the URL: the form's fields have no `name`, so
//! even a submitted form could not carry them.
//!
//! The package is imported by its bare name, "tao-agent", as from npm; with no bundler, the
//! page's import map says where it is (`./tao/tao.js`, the copy of dist/ made by build.mjs).

import { providers, TaoAgent } from "tao-agent";

/**
 * The element with this id, checked to be of the expected kind (so a renamed id in ask.html
 * fails here, by name, rather than later as "cannot read properties of null").
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T, name: string }} kind
 * @returns {T}
 */
function byId(id, kind) {
  const found = document.getElementById(id);
  if (!(found instanceof kind)) throw new Error(`ask.html: no ${kind.name} with id "${id}"`);
  return found;
}

const agent = byId("agent", TaoAgent);
const form = byId("settings", HTMLFormElement);
const provider = byId("provider", HTMLSelectElement);
const providerFields = byId("provider-fields", HTMLDivElement);
const baseUrl = byId("base-url", HTMLInputElement);
const model = byId("model", HTMLInputElement);
const apiKey = byId("api-key", HTMLInputElement);

/**
 * The providers' defaults (base URL, an example model, whether a key is needed), shown as the
 * fields' placeholders. `providers()` is the core's, so it is known once the wasm has loaded.
 * @type {import("tao-agent").ProviderInfo[]}
 */
let defaults = [];

/** Sets an attribute of the element, or removes it when `value` is empty (the default then applies). */
function setOrRemove(/** @type {string} */ name, /** @type {string} */ value) {
  if (value) agent.setAttribute(name, value);
  else agent.removeAttribute(name);
}

/** Puts the form's values on the element. The element reads them at the next Run. */
function apply() {
  const human = provider.value === "human";
  agent.setAttribute("provider", provider.value);
  providerFields.hidden = human;
  setOrRemove("base-url", human ? "" : baseUrl.value.trim());
  setOrRemove("model", human ? "" : model.value.trim());
  agent.apiKey = human ? "" : apiKey.value;
  // An empty field means the provider's default: show it as the placeholder.
  const known = defaults.find((p) => p.name === provider.value);
  baseUrl.placeholder = known?.baseUrl ?? "";
  model.placeholder = known?.model ?? "";
  apiKey.placeholder = known && !known.needsKey ? "not needed" : "";
}

form.addEventListener("input", apply);
form.addEventListener("change", apply);
// Enter in a field would submit the form and reload the page: there is nothing to send.
form.addEventListener("submit", (event) => event.preventDefault());
// The browser may have restored the fields (Back, reload): start from what they show.
apply();

agent.ready.then(
  () => {
    defaults = providers();
    apply();
  },
  () => {}, // the element itself says that the agent could not be loaded
);

// The example questions run at once, in the element's task box.
/** @type {NodeListOf<HTMLButtonElement>} */
const examples = document.querySelectorAll("button[data-question]");
for (const button of examples) {
  button.addEventListener("click", () => {
    agent.run(button.dataset.question).catch(() => {}); // the element shows why a run could not start
  });
}
