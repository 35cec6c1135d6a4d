//! Share: writes the current settings into a link that opens the page with them (`query.js` reads
//! it), in the address bar and on the clipboard. Only settings travel in a link: never a key,
//! never a trajectory. The page loads this module at the first Share (main.js).

import { addWords } from "./i18n.js";
import { state, toolsPanel, showStatus } from "./app.js";
import { isShareable, wikiChosenByUser } from "./page-tools.js";
import { callsServer } from "./provider.js";

// Share's words in English, added to the page's dictionary when it first loads, so the first load
// does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese loads).
addWords({
  en: {
    "status.linkCopied": "Share link copied to the clipboard (it is also in the address bar).",
    "status.linkReady": "Share link is in the address bar.",
  },
});

/** Puts the settings `s` in the address bar and on the clipboard. */
export async function share(s) {
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
  // MCP servers by their URLs: never a token (the reader gives their own, if one is needed).
  if (panel.mcp.length) q.set("mcp", panel.mcp.map((server) => server.url).join(" "));
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
  // A run on a server is set up by the link, not started (main.js): its reader presses Run.
  if (!callsServer(s.provider)) q.set("autorun", "1");
  const url = `${location.origin}${location.pathname}?${q}`;
  history.replaceState(null, "", url);
  try {
    await navigator.clipboard.writeText(url);
    showStatus("status.linkCopied");
  } catch {
    showStatus("status.linkReady");
  }
}
