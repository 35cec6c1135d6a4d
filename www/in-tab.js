//! The model in the tab, in the page: the Model panel's part when "In this tab — no key" is
//! chosen (the catalogue as the model field's suggestions, what the chosen model is, a .gguf file
//! from this computer, the models kept in this browser with Delete), and the question asked
//! before a run downloads one ("Download SmolLM2 135M, 145 MB?"), which a link or an autorun
//! never skips. Loaded the first time the provider is chosen or a run uses it; it loads the
//! engine's module (pkg/tao_wllama.js), whose `catalogue`, `inspect`, `stored`, `forget`,
//! `useFile` and `support` it uses. The download itself is drawn by the run's view (live.js).

import { t, addWords, lang } from "./i18n.js";
import { el } from "./cards.js";
import { controls, showError } from "./app.js";

addWords({
  en: {
    "local.model": "Model in this tab",
    "local.placeholder": "smollm2-360m, or a .gguf URL",
    "local.file": "Or a .gguf file on this computer",
    "local.stored": "Kept in this browser",
    "local.none": "No model is kept in this browser yet.",
    "local.delete": "Delete",
    "local.use": "Use",
    "local.deleted": "Deleted {label}.",
    "local.about": "{label}: a {size} download, licence {licence}. {good}.",
    "local.url": "A model from its address: downloaded once, kept in this browser.",
    "local.picked": "A file from this computer: read from the disk, not downloaded or kept.",
    "local.unknown": "Not a model of the list: choose one of the names offered, or give the address of a .gguf file.",
    "local.incomplete": "incomplete",
    "local.ask.title": "Download {label}?",
    "local.ask.text": "It is {size}: downloaded once, then kept in this browser for next time (delete it here in the Model panel). It runs on this computer: no key, and nothing you ask leaves the page.",
    "local.ask.unknown": "Its size is not known. It is downloaded once, then kept in this browser for next time (delete it here in the Model panel). It runs on this computer: no key, and nothing you ask leaves the page.",
    "local.ask.yes": "Download and run",
    "local.ask.no": "Cancel",
  },
});

/** The engine's module, loaded once. */
let module = null;
const engine = () => (module ??= import("../pkg/tao_wllama.js"));

const mb = (bytes) => `${Math.round(bytes / 1e6).toLocaleString()} MB`;

/** The Model panel's part for this provider: suggestions, the chosen model's facts, files, stored models. */
export async function show() {
  const m = await engine();
  const input = document.querySelector("#model");
  let list = document.querySelector("#local-models");
  if (!list) {
    list = el("datalist", { id: "local-models" });
    for (const entry of m.catalogue) list.append(el("option", { value: entry.name }, `${entry.label} · ${mb(entry.bytes)}`));
    input.after(list);
  }
  input.setAttribute("list", "local-models");
  input.placeholder = t("local.placeholder");
  // A model kept in this browser before one to download.
  const kept = await m.stored().catch(() => []);
  const ready = kept.find((model) => model.complete);
  if (!input.value.trim()) input.value = ready ? nameOf(m, ready.url) : m.catalogue[0].name;
  about(m);
  listStored(m, kept);
}

/** A kept model's name in the field: its catalogue name, else its address. */
const nameOf = (m, url) => m.catalogue.find((entry) => entry.url === url)?.name ?? url;

/** Back to another provider: the model field as it was. */
export function hide() {
  document.querySelector("#model")?.removeAttribute("list");
}

/** What the chosen model is, under the fields. */
function about(m) {
  const line = document.querySelector("[data-local-about]");
  if (!line) return;
  const name = controls.settings().model;
  const entry = m.catalogue.find((c) => c.name === name.toLowerCase());
  const looksLikeUrl = /[/.]/.test(name);
  line.textContent = entry
    ? t("local.about").replace("{label}", entry.label).replace("{size}", mb(entry.bytes)).replace("{licence}", entry.licence).replace("{good}", lang() === "zh" ? entry.goodZh : entry.good)
    : name.startsWith("file:") ? t("local.picked") : looksLikeUrl || !name ? t("local.url") : t("local.unknown");
}

/** The models kept in this browser (`kept`, else asked for), each with Use and Delete. */
async function listStored(m, kept = null) {
  const box = document.querySelector("[data-local-stored]");
  if (!box) return;
  kept ??= await m.stored().catch(() => []);
  const list = el("ul", { class: "local-stored" });
  for (const model of kept) {
    const item = el("li", { title: model.url }, `${model.label} · ${mb(model.bytes)}${model.complete ? "" : ` (${t("local.incomplete")})`} `);
    const button = (word, then) => {
      const b = el("button", { type: "button", class: "quiet", "aria-label": `${t(word)} ${model.label}` }, t(word));
      b.addEventListener("click", then);
      item.append(b);
    };
    if (model.complete) {
      button("local.use", () => {
        const input = document.querySelector("#model");
        input.value = nameOf(m, model.url);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    }
    button("local.delete", async () => {
      await m.forget(model.url);
      showError("");
      document.querySelector("[data-status]").textContent = t("local.deleted").replace("{label}", model.label);
      await listStored(m);
    });
    list.append(item);
  }
  box.replaceChildren(el("p", { class: "hint" }, kept.length ? t("local.stored") : t("local.none")));
  if (kept.length) box.append(list);
}

/** Wires the panel's own controls (once): the model field's facts, the file picker. */
export function install() {
  document.querySelector("#model")?.addEventListener("input", async () => {
    if (controls.settings().provider === "wllama") about(await engine());
  });
  document.querySelector("[data-local-file]")?.addEventListener("change", async (e) => {
    const file = e.target.files?.[0];
    if (!file) return;
    const m = await engine();
    controls.apply({ model: m.useFile(file) });
    about(m);
  });
}

/**
 * Before a run with the model in the tab: says what the browser lacks, else asks before a
 * download (unless the model is kept already). Resolves to whether the run may go on.
 */
export async function ready(model) {
  const m = await engine();
  const lacking = m.support();
  if (lacking) {
    showError(lacking);
    return false;
  }
  let facts;
  try {
    facts = await m.inspect(model);
  } catch (error) {
    showError(error.message);
    return false;
  }
  if (facts.stored) return true;
  return ask(facts);
}

/** The question, as a modal dialog: Download and run, or Cancel (Escape). */
function ask({ label, bytes }) {
  const dialog = el("dialog", { class: "local-ask", "aria-labelledby": "local-ask-title" });
  dialog.append(
    el("h2", { id: "local-ask-title" }, t("local.ask.title").replace("{label}", label)),
    el("p", {}, bytes ? t("local.ask.text").replace("{size}", mb(bytes)) : t("local.ask.unknown")),
  );
  const buttons = el("p", { class: "notice-buttons" });
  const yes = el("button", { type: "button", class: "primary", value: "yes" }, t("local.ask.yes"));
  const no = el("button", { type: "button", value: "no" }, t("local.ask.no"));
  buttons.append(yes, no);
  dialog.append(buttons);
  document.body.append(dialog);
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    yes.addEventListener("click", () => done(true));
    no.addEventListener("click", () => done(false));
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      done(false);
    });
    dialog.showModal();
    yes.focus();
  });
}
