//! The notice that a benchmark saved in this browser is unfinished, with Resume (never resumed by
//! itself): loaded by benchmark-open.js only when there is such a benchmark.

import { t, addWords } from "./i18n.js";
import { open, ready } from "./benchmark-open.js";

// The Resume notice's words in English, added to the page's dictionary when it first loads, so the first
// load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese loads).
addWords({
  en: {
    "bench.saved": "An unfinished benchmark is saved in this browser: {done} / {total} runs done.",
    "bench.dismiss": "Dismiss",
  },
});

/** Offers Resume at the top of the stage (kept until Resume or Dismiss). */
export function offerResume(counts) {
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
