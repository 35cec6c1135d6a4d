//! The query string both ways: the settings a page opens with (`?scenario=…&autorun=1`), and
//! Share, which writes the current settings into such a link. Only settings travel in a link:
//! never a key, never a trajectory.

import { t } from "./i18n.js";
import { state, toolsPanel, showStatus } from "./app.js";
import { isShareable, wikiChosenByUser } from "./page-tools.js";

/** The query string's settings: ?scenario=&format=&lang=&task=&maxSteps=&delay=&tokenBudget=&timeBudget=&memoryTokens=&reflectEvery=&provider=&base=&model=&maxTokens=&firstByte=&idle=&wiki=&tools=&mode=step&compare=react,act&autorun=1 (never a key). */
export function readQuery() {
  const q = new URLSearchParams(location.search);
  const num = (key) => (q.has(key) && q.get(key) !== "" && Number.isFinite(Number(q.get(key))) ? Number(q.get(key)) : undefined);
  return {
    scenario: q.get("scenario") ?? undefined,
    format: q.get("format") ?? undefined,
    lang: q.get("lang") ?? undefined,
    task: q.get("task") ?? undefined,
    maxSteps: num("maxSteps"),
    delayMs: num("delay"),
    tokenBudget: num("tokenBudget"),
    timeBudget: num("timeBudget"),
    memoryTokens: num("memoryTokens"),
    reflectEvery: num("reflectEvery"),
    provider: q.get("provider") ?? undefined,
    baseUrl: q.get("base") ?? undefined,
    model: q.get("model") ?? undefined,
    maxTokens: num("maxTokens"),
    firstByteTimeout: num("firstByte"),
    idleTimeout: num("idle"),
    wiki: q.get("wiki") ?? undefined,
    tools: q.has("tools") ? q.get("tools").split(",").filter(Boolean) : undefined,
    stepMode: q.get("mode") === "step" ? true : undefined,
    compare: q.has("compare") ? q.get("compare").split(",").filter(Boolean) : undefined,
    autorun: q.get("autorun") === "1",
  };
}

/** Puts the settings `s` in the address bar and on the clipboard. */
async function share(s) {
  const q = new URLSearchParams({
    scenario: s.scenario,
    format: s.format,
    lang: s.lang,
    task: s.task,
    maxSteps: String(s.maxSteps),
  });
  const panel = toolsPanel.settings();
  q.set("tools", panel.enabled.filter(isShareable).join(","));
  // A wiki the page chose (a scenario going live) is left for the opened page to choose again.
  if (panel.wiki && panel.wiki !== "offline" && wikiChosenByUser()) q.set("wiki", panel.wiki);
  // "This question, against this model": the provider, base URL and model name, not the key.
  if (s.stepMode) q.set("mode", "step");
  // The compare view and its modes, when the stage shows it.
  if (state.compare) q.set("compare", state.compare.modes().join(","));
  // Budgets and memory when set, as the form shows them (the time budget in seconds).
  for (const name of ["tokenBudget", "timeBudget", "memoryTokens", "reflectEvery"]) {
    const value = document.getElementById(name).value;
    if (Number(value) > 0) q.set(name, value);
  }
  if (s.provider !== "scripted") {
    q.set("provider", s.provider);
    if (s.baseUrl) q.set("base", s.baseUrl);
    if (s.model) q.set("model", s.model);
    if (s.maxTokens) q.set("maxTokens", String(s.maxTokens));
    // The timeouts travel when changed from the defaults the form shows (in seconds, as shown).
    for (const [param, id] of [["firstByte", "firstByteTimeout"], ["idle", "idleTimeout"]]) {
      const field = document.getElementById(id);
      if (field.value !== field.defaultValue) q.set(param, field.value);
    }
  }
  q.set("autorun", "1");
  const url = `${location.origin}${location.pathname}?${q}`;
  history.replaceState(null, "", url);
  try {
    await navigator.clipboard.writeText(url);
    showStatus(t("status.linkCopied"));
  } catch {
    showStatus(t("status.linkReady"));
  }
}

export function install() {
  document.addEventListener("tao:share", (e) => share(e.detail));
}
