//! A Run the offline model cannot play, said where the reader looks then (the top of the stage,
//! read out, its first choice focused), and the choices acted on: You (the provider switches and
//! the question is asked at once), a real model (the Model fields, unfolded and focused), or the
//! scenario's own question (asked at once). Loaded by `offline.js` the first time it is needed.

import { t, addWords, applyI18n } from "./i18n.js";
import { el } from "./cards.js";
import { state, controls, scenarioList } from "./app.js";
import { setFolded } from "./present.js";
import { announce } from "./announce.js";

addWords({ en: { "offline.refused": "Run did not start." } });

/** Says at the top of the stage that Run was refused, with the choices of `form` (the notice under the task). */
export function refuse(form) {
  document.querySelector("[data-run-notice]")?.remove();
  const box = el("div", { class: "notice", "data-run-notice": "" });
  const words = el("p", { class: "sentences" });
  words.append(el("strong", { "data-i18n": "offline.refused" }), el("span", { "data-i18n": "offline.mismatch" }));
  box.append(words, form.querySelector(".notice-buttons").cloneNode(true));
  applyI18n(box);
  document.querySelector("[data-status]").after(box);
  announce(`${t("offline.refused")} ${t("offline.mismatch")}`);
  box.querySelector("button").focus();
}

/** Runs the form as it is now (a step, in step-by-step mode), once nothing else runs. */
function runNow() {
  if (!state.running && !controls.hasAttribute("paused")) controls.querySelector("form").requestSubmit();
}

/** Acts on a choice (`use-human`, `use-local`, `choose-model`, `use-question`); `refresh` redraws the notices. */
export function choose(action, refresh) {
  const settings = controls.settings();
  if (action === "use-human") {
    controls.apply({ provider: "human" });
    document.querySelector('[name="provider"]').dispatchEvent(new Event("change", { bubbles: true }));
    refresh();
    runNow();
  } else if (action === "use-local") {
    // The smallest model of the catalogue, unless one is named; the run asks before the download.
    controls.apply({ provider: "wllama", model: settings.provider === "wllama" ? settings.model : "" });
    document.querySelector('[name="provider"]').dispatchEvent(new Event("change", { bubbles: true }));
    refresh();
    import("./in-tab.js").then((part) => part.show()).then(runNow);
  } else if (action === "choose-model") {
    setFolded(false); // the Model fields are in the settings, which may be folded away
    refresh();
    document.querySelector('[name="provider"]').focus();
  } else {
    const task = scenarioList(settings.lang)?.find((s) => s.name === settings.scenario)?.task;
    if (!task) return;
    controls.apply({ task });
    refresh();
    runNow();
  }
}
