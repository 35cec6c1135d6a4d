//! The offline data the core does not carry: the scenarios (their replies and rules), the offline
//! search's pages and the Chinese prompts, each a JSON file beside the wasm (`pkg/data/` for the
//! demo page, `data/` in the package). A page that embeds tao with its own model and tools never
//! needs them, so they are fetched only when an agent does, each once, and installed with the
//! core's `loadOfflineData`. The demo page and `<tao-agent>` both load them through here.

/**
 * A loader of the offline data in the folder `base` (a URL), or at the URLs `base` maps the names
 * to, into the core that `core()` resolves to: `load(names)` fetches each `<name>.json`
 * ("scenarios", "knowledge", "zh") at most once, while the core itself loads, and installs it; a
 * failed fetch is tried again at the next call. (The package names each file's URL in full, so
 * that a bundler sees it: `new URL("./data/zh.json", import.meta.url)`.)
 */
export function offlineLoader(base, core) {
  const installed = {};
  const url = (name) => (base instanceof URL ? new URL(`${name}.json`, base) : base[name]);
  const install = (name) => {
    installed[name] ??= Promise.all([core(), fetchText(url(name))]).then(([tao, text]) => tao.loadOfflineData({ [name]: text }));
    installed[name].catch(() => delete installed[name]);
    return installed[name];
  };
  return (names) => Promise.all(names.map(install)).then(() => {});
}

/** The text of the data file at `url`; a missing one is an error that names it. */
export async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load the offline data from ${url}: HTTP ${response.status}`);
  return response.text();
}

/**
 * The offline data an agent with settings `config` reads, by name: the scenarios for a
 * `scenario`; the offline search's pages for `search` or `lookup` without a `wiki` (tools left
 * unset are the scenario's, which the core knows only once the scenarios are in: they are taken
 * to search, so the pages come at the same time); the Chinese prompts for an agent in Chinese,
 * or one that renders the prompts of a `trajectory` in Chinese.
 */
export function offlineNeeds(config, trajectory) {
  const names = config.scenario ? ["scenarios"] : [];
  const tools = config.tools ?? (config.scenario ? ["search"] : []);
  if (!config.wiki && tools.some((name) => name === "search" || name === "lookup")) names.push("knowledge");
  if ([config.lang, trajectory?.lang].some(inChinese)) names.push("zh");
  return names;
}

/** Whether a `lang` setting is other than English (the core reads "zh", "cn", "chinese", ...). */
const inChinese = (lang) => typeof lang === "string" && lang !== "" && !/^en/i.test(lang);
