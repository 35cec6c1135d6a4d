//! Follows a streaming run down the page once the reader has scrolled to the bottom, and stops
//! following when they scroll up. Measured on scroll only, never per token: reading the layout
//! after every streamed delta would force a reflow each time.

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
  window.addEventListener(
    "scroll",
    () => {
      const doc = document.documentElement;
      following = doc.scrollHeight > window.innerHeight && window.innerHeight + window.scrollY >= doc.scrollHeight - 80;
    },
    { passive: true },
  );
}
