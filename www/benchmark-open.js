//! The way into benchmark mode, and all of it that a first visit loads: the header's Benchmark
//! button, `?benchmark=hotpotqa&n=5&modes=react,act&from=1&data=…&concurrency=2`, and the notice
//! that a benchmark saved in this browser is unfinished, with Resume (never resumed by itself;
//! `benchmark-resume.js`, loaded only then). The panel and its logic (`benchmark-view.js`,
//! `benchmark.js`) are imported on first use.

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
export function ready() {
  return new Promise((resolve) => {
    if (document.body.dataset.ready === "true") return resolve();
    const watch = new MutationObserver(() => {
      if (document.body.dataset.ready === "true") resolve(watch.disconnect());
    });
    watch.observe(document.body, { attributes: true, attributeFilter: ["data-ready"] });
  });
}

/** Opens the benchmark panel once the wasm is in (the button again closes it; Resume does not). */
export async function open(options) {
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

export function install() {
  document.querySelector('[data-action="benchmark"]')?.addEventListener("click", () => open({}));
  const counts = unfinished();
  // (A notice that could not be loaded is not shown: the saved benchmark stays saved.)
  if (counts) import("./benchmark-resume.js").then((part) => part.offerResume(counts), () => {});
  const query = readQuery();
  if (query) open({ query });
}
