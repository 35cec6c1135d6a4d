//! Tells screen readers how a run ended. The trajectory is a `role="log"` live region, so new
//! cards are read as they arrive; the answer (or why the run stopped without one) is also put
//! in a visually hidden polite live region (`[data-announce]` in `index.html`), so it is heard
//! even when the reader's focus is elsewhere. It listens to the live view's
//! `tao:trajectory-event`s, so it speaks for any run, however it was started, and never for an
//! import or a redraw.

import { t } from "./i18n.js";

const box = document.querySelector("[data-announce]");

/** Puts `text` in the live region (emptied first, so the same answer twice is read twice). */
export function announce(text) {
  box.textContent = "";
  setTimeout(() => (box.textContent = text), 50);
}

export function install() {
  document.addEventListener("tao:trajectory-event", (e) => {
    const ev = e.detail;
    // A run's first step empties it: how the last run ended is no news during the next.
    if (ev.type === "step" && ev.index === 1) box.textContent = "";
    else if (ev.type === "answer") announce(`${t("announce.answer")} ${ev.text ?? ""}`);
    else if (ev.type === "stopped" && ev.reason !== "answer") announce(`${t("card.stop")}: ${t("reason." + ev.reason)}`);
  });
}
