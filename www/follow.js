//! Keeps the current step in view while a run streams: from the start of a run the page follows
//! the end of the trajectory (where the model is writing), until the reader scrolls up; it
//! follows again once they return to the bottom, or at the next run. Measured on scroll only,
//! never per token: reading the layout after every streamed delta would force a reflow each
//! time, so events only queue one scroll per frame.

let following = false;
let followQueued = false;

/** Scrolls to the bottom on the next frame, if the reader is following (called per event). */
export function follow() {
  if (!following || followQueued) return;
  followQueued = true;
  requestAnimationFrame(() => {
    followQueued = false;
    if (following) window.scrollTo({ top: document.documentElement.scrollHeight });
  });
}

export function install() {
  // A run starts (its first step, however the run was started): follow it from there, wherever
  // the reader was. `tao:trajectory-event` is the live view's echo of each agent event.
  document.addEventListener("tao:trajectory-event", (e) => {
    if (e.detail.type === "step" && e.detail.index === 1) following = true;
  });
  // Our own scrolls land at the bottom and keep following; the reader's scroll up stops it (a
  // scroll down, such as the browser bringing the Run button into view as it is pressed, does
  // not). A page shorter than the window cannot be scrolled away from, so it keeps following too.
  let lastY = window.scrollY;
  window.addEventListener(
    "scroll",
    () => {
      const doc = document.documentElement;
      if (window.innerHeight + window.scrollY >= doc.scrollHeight - 80) following = true;
      else if (window.scrollY < lastY) following = false;
      lastY = window.scrollY;
    },
    { passive: true },
  );
}
