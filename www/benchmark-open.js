//! The way into benchmark mode, and all of it that a first visit loads: the header's Benchmark
//! button, `?benchmark=hotpotqa&n=5&modes=react,act&from=1&data=…&concurrency=2`, and the notice
//! that a benchmark saved in this browser is unfinished, with Resume (never resumed by itself).
//! The panel and its logic (`benchmark-view.js`, `benchmark.js`) are imported on first use.

import { t } from "./i18n.js";

/** The benchmark's settings in the query string, or null when it asks for none. */
function readQuery() {
  const q = new URLSearchParams(location.search);
  if (!q.has("benchmark")) return null;
  const num = (key) => (Number(q.get(key)) > 0 ? Number(q.get(key)) : undefined);
  return {
    dataset: q.get("benchmark") === "fever" ? "fever" : "hotpotqa",
    n: num("n"),
    from: num("from"),
    concurrency: num("concurrency"),
    modes: q.get("modes")?.split(",").filter(Boolean),
    dataUrl: q.get("data") || undefined,
  };
}

/** Resolves once the page has loaded the wasm (`main.js` marks the body ready). */
function ready() {
  return new Promise((resolve) => {
    if (document.body.dataset.ready === "true") return resolve();
    const watch = new MutationObserver(() => {
      if (document.body.dataset.ready === "true") resolve(watch.disconnect());
    });
    watch.observe(document.body, { attributes: true, attributeFilter: ["data-ready"] });
  });
}

async function open(options) {
  await ready();
  const view = await import("./benchmark-view.js");
  if (view.isOpen() && !options.resume) return view.closeBenchmark();
  await view.openBenchmark(options);
}

/** The saved benchmark's counts, `{done, total}`, when it is unfinished; else null. */
function unfinished() {
  try {
    const saved = JSON.parse(localStorage.getItem("tao.benchmark") ?? "null");
    const total = saved.items.length * saved.config.modes.length;
    return saved.results.length < total ? { done: saved.results.length, total } : null;
  } catch {
    return null;
  }
}

/** Offers Resume at the top of the stage (kept until Resume or Dismiss). */
function offerResume(counts) {
  const box = document.createElement("div");
  box.className = "notice bench-notice";
  box.dataset.benchNotice = "";
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", t("bench.title"));
  const text = document.createElement("p");
  const buttons = document.createElement("p");
  buttons.className = "notice-buttons";
  const resume = document.createElement("button");
  const dismiss = document.createElement("button");
  dismiss.className = "quiet";
  const words = () => {
    text.textContent = t("bench.saved").replace("{done}", counts.done).replace("{total}", counts.total);
    resume.textContent = t("bench.resume");
    dismiss.textContent = t("bench.dismiss");
  };
  words();
  // The page's language is known once it has started (and again whenever it changes).
  ready().then(words);
  document.addEventListener("tao:lang", () => setTimeout(words));
  resume.addEventListener("click", () => open({ resume: true }));
  dismiss.addEventListener("click", () => (box.hidden = true));
  buttons.append(resume, dismiss);
  box.append(text, buttons);
  document.querySelector("main [data-status]").after(box);
}

export function install() {
  document.querySelector('[data-action="benchmark"]')?.addEventListener("click", () => open({}));
  const counts = unfinished();
  if (counts) offerResume(counts);
  const query = readQuery();
  if (query) open({ query });
}
