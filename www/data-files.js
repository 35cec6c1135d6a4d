//! Files for `run_js`: text files (a CSV of prices, say) that the user drops on the page or
//! chooses are kept here by name, and each run_js call gets a copy as `files["name"]` inside its
//! sandbox (code-tool.js). The `stock-chart` scenario brings its own file, the made-up prices in
//! `www/samples/stock_prices.csv` (see www/samples/README.md): it is added when the scenario is
//! chosen, and again before an offline run if it was removed. A file the user drops with the
//! same name takes its place.
//!
//! The markup is the files panel in index.html: a drop zone that is also the label of a file
//! input (so a keyboard or a screen reader chooses a file the usual way), the list of files and
//! a status line. `page-tools.js` listens on it and loads this module the first time a file
//! comes or a scenario with run_js is chosen: a visit that never uses files never fetches it.
//! A change is announced as a bubbling `tao:files` event (what the model is told about run_js
//! names the files).

import { t, addWords } from "./i18n.js";

// The data files panel's words in English, added to the page's dictionary when it first loads, so
// the first load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese
// loads).
addWords({
  en: {
    "files.rows": "{n} rows",
    "files.lines": "{n} lines",
    "files.sample": "sample (made-up prices)",
    "files.remove": "Remove",
    "files.added": "Added {name}: run_js reads it as files[\"{name}\"].",
    "files.removed": "Removed {name}.",
    "files.tooBig": "{name} is not added: it is over {mb} MB.",
    "files.notText": "{name} is not added: it is not a text file (CSV, TSV, JSON or plain text).",
    "files.sampleFailed": "The sample file could not be loaded from",
  },
});

/** The largest file kept: more than a sandbox call should chew on, or the page copy each time. */
const MAX_BYTES = 5 * 1024 * 1024;
/** The file each scenario reads, by scenario: its name in `files`, and where the page has it. */
const SAMPLES = { "stock-chart": { name: "stock_prices.csv", url: "www/samples/stock_prices.csv" } };

/** The files by name: `{text, sample}` (`sample`: the scenario that brought it, or null). */
const kept = new Map();
/** Samples being fetched, by scenario, so two callers wait for one fetch. */
const fetching = new Map();

const panel = () => document.querySelector("[data-files]");

/** The files as run_js gets them: name → text. */
export function currentFiles() {
  return Object.fromEntries([...kept].map(([name, file]) => [name, file.text]));
}

/**
 * A scenario was chosen: its sample is added (unless a file of that name is here), and the
 * sample of another scenario goes. Resolves once the sample is in.
 */
export function useScenarioFiles(scenario) {
  let changed = false;
  for (const [name, file] of kept) {
    if (file.sample && file.sample !== scenario) changed = kept.delete(name);
  }
  if (changed) shown();
  return addSample(scenario);
}

/** Makes sure the scenario's sample is in (before an offline run: its rules read that file). */
export function addSample(scenario) {
  const sample = SAMPLES[scenario];
  if (!sample || kept.has(sample.name)) return Promise.resolve();
  if (!fetching.has(scenario)) {
    const done = fetch(sample.url)
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((text) => {
        if (!kept.has(sample.name)) kept.set(sample.name, { text, sample: scenario });
        shown();
      })
      .catch((e) => status(`${t("files.sampleFailed")} ${sample.url}: ${e.message}`))
      .finally(() => fetching.delete(scenario));
    fetching.set(scenario, done);
  }
  return fetching.get(scenario);
}

/** Keeps the chosen or dropped files (`File`s), saying for each what happened. */
export async function add(list) {
  const said = [];
  for (const file of list) {
    if (file.size > MAX_BYTES) {
      said.push(t("files.tooBig").replace("{name}", file.name).replace("{mb}", String(MAX_BYTES >> 20)));
      continue;
    }
    const text = await file.text();
    // A NUL is never in a text file: this is an image, a spreadsheet or an archive.
    if (text.includes("\u0000")) {
      said.push(t("files.notText").replace("{name}", file.name));
      continue;
    }
    kept.set(file.name, { text, sample: null });
    said.push(t("files.added").replace("{name}", file.name));
  }
  shown();
  status(said.join(" "));
}

/** Redraws the list, and tells the page the files changed. */
function shown() {
  draw();
  panel()?.dispatchEvent(new CustomEvent("tao:files", { bubbles: true, detail: { names: [...kept.keys()] } }));
}

/** The list of files: name, size, and a Remove button each (names are text, never markup). */
function draw() {
  const list = panel()?.querySelector("[data-file-list]");
  if (!list) return;
  const rows = [...kept].map(([name, file]) => {
    const row = document.createElement("li");
    row.dataset.file = name;
    const code = document.createElement("code");
    code.textContent = name;
    const about = document.createElement("span");
    about.className = "hint";
    const lines = file.text.split("\n").filter((line) => line.trim()).length;
    const csv = /\.(csv|tsv)$/i.test(name);
    const size = t(csv ? "files.rows" : "files.lines").replace("{n}", String(csv ? Math.max(0, lines - 1) : lines));
    about.textContent = `${size} · ${kilobytes(file.text)}${file.sample ? ` · ${t("files.sample")}` : ""}`;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "quiet small";
    remove.dataset.removeFile = name;
    remove.textContent = t("files.remove");
    remove.setAttribute("aria-label", `${t("files.remove")} ${name}`);
    row.append(code, " ", about, " ", remove);
    return row;
  });
  list.replaceChildren(...rows);
  list.hidden = rows.length === 0;
}

function kilobytes(text) {
  const bytes = new Blob([text]).size;
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function status(text) {
  const line = panel()?.querySelector("[data-file-status]");
  if (line) line.textContent = text;
}

/** Removes a file (its Remove button was pressed). */
export function remove(name) {
  kept.delete(name);
  shown();
  status(t("files.removed").replace("{name}", name));
}

// The list speaks the page's language.
document.addEventListener("tao:lang", draw);
