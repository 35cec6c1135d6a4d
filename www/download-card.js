//! The card of the model's download (the model in the tab, before its first reply), drawn from
//! the run's `download` events: a bar, the megabytes, the share and the time left, and Cancel
//! (the run's Stop: it bubbles `tao:stop`, composed, out of an element's shadow tree too); the
//! last event says it is done and the model is loading. Loaded by live.js at the first such
//! event, so a page that never downloads a model does not load it.

import { t, addWords } from "./i18n.js";
import { card, el } from "./cards.js";

// The English words (the Chinese ones are in i18n-zh.js).
addWords({
  en: {
    "card.download": "Downloading the model",
    "download.progress": "{loaded} of {total} MB ({percent}%), {left} left",
    "download.unknown": "{loaded} MB so far",
    "download.seconds": "about {n} s",
    "download.minutes": "about {n} min",
    "download.done": "Downloaded ({total} MB) and kept in this browser. Loading it, then it reads the question…",
    "download.cancel": "Cancel",
  },
});

/** The download in progress of each live view: `{card, started, from}`. */
const downloads = new WeakMap();

const mb = (bytes) => (bytes / 1e6).toLocaleString(undefined, { maximumFractionDigits: bytes < 1e7 ? 1 : 0 });

/** Draws `ev` (`{index, loaded, total}`) in `live`'s step `ev.index`. */
export function draw(live, ev) {
  const now = performance.now();
  let d = downloads.get(live);
  if (!d || !d.card.isConnected) {
    const box = card("download", t("card.download"));
    const bar = el("progress", { max: "1", value: "0", "aria-label": t("card.download") });
    const line = el("p", { class: "card-text", "data-download-text": "" });
    const cancel = el("button", { type: "button", "data-download-cancel": "" }, t("download.cancel"));
    cancel.addEventListener("click", () => cancel.dispatchEvent(new CustomEvent("tao:stop", { bubbles: true, composed: true })));
    const buttons = el("p", { class: "approval-buttons" });
    buttons.append(cancel);
    box.append(bar, line, buttons);
    live.insert(ev.index, box);
    d = { card: box, started: now, from: ev.loaded };
    downloads.set(live, d);
  }
  const bar = d.card.querySelector("progress");
  const line = d.card.querySelector("[data-download-text]");
  if (ev.total > 0 && ev.loaded >= ev.total) {
    bar.value = 1;
    line.textContent = t("download.done").replace("{total}", mb(ev.total));
    d.card.querySelector("[data-download-cancel]")?.parentNode.remove();
    return;
  }
  const share = ev.total > 0 ? ev.loaded / ev.total : 0;
  if (ev.total > 0) bar.value = share;
  else bar.removeAttribute("value");
  // Time left at the speed so far (said once a second of it is known).
  const seconds = (now - d.started) / 1000;
  const speed = (ev.loaded - d.from) / Math.max(seconds, 1e-3);
  const left = ev.total > 0 && seconds >= 1 && speed > 0 ? Math.ceil((ev.total - ev.loaded) / speed) : null;
  const words = ev.total > 0 ? t("download.progress") : t("download.unknown");
  line.textContent = words
    .replace("{loaded}", mb(ev.loaded))
    .replace("{total}", mb(ev.total))
    .replace("{percent}", String(Math.floor(share * 100)))
    .replace("{left}", left === null ? "…" : left < 90 ? t("download.seconds").replace("{n}", String(left)) : t("download.minutes").replace("{n}", String(Math.ceil(left / 60))));
}
