//! The presenter's view: two buttons in the header. **Present** (`aria-pressed`) enlarges all
//! text by a quarter for a projector; it is remembered on this device (`localStorage`
//! `tao.present`) and `?present=1` turns it on. **Hide settings** / **Show settings**
//! (`aria-expanded`) folds the settings column on wide screens down to its Run / Stop buttons,
//! so the trajectory gets the room.
//!
//! Both only set attributes on `<html>` and `.page`; `style.css` does the rest (the page's sizes
//! are in rem, so scaling the root font size scales the text).

import { t } from "./i18n.js";

const KEY = "tao.present";

const root = document.documentElement;
const presentButton = document.querySelector('[data-action="present"]');
const settingsButton = document.querySelector('[data-action="settings"]');
const page = document.querySelector(".page");

/** Turns presenter mode on or off (and remembers it when `remember`). */
export function setPresent(on, remember = true) {
  root.toggleAttribute("data-present", on);
  presentButton.setAttribute("aria-pressed", String(on));
  if (!remember) return;
  try {
    if (on) localStorage.setItem(KEY, "1");
    else localStorage.removeItem(KEY);
  } catch {
    /* storage may be blocked; the toggle still works for this visit */
  }
}

/** Folds the settings column away (`folded` true) or shows it. */
export function setFolded(folded) {
  page.toggleAttribute("data-folded", folded);
  settingsButton.setAttribute("aria-expanded", String(!folded));
  // Its words follow its state; `applyI18n()` redraws them on a language change.
  settingsButton.dataset.i18n = folded ? "settings.show" : "settings.hide";
  settingsButton.textContent = t(settingsButton.dataset.i18n);
}

/**
 * Runs `change` (a change of layout: the settings folded or shown) keeping the reader's place.
 * A card the run waits on (a paused run's, You's) stays where it was when it could be read,
 * else it is brought into view: the button is at the top of the page, the card usually far
 * below, and the reader folds the settings to go on with the run. Without a card, the first
 * card in view stays where it was (the trajectory reflows to the new width).
 */
function keepInView(change) {
  const waiting = document.querySelector('.stage [data-kind="pause"], .stage [data-kind="human"]');
  const shown = (node) => node.getBoundingClientRect().top >= 0 && node.getBoundingClientRect().top <= innerHeight - 200;
  const anchor = waiting ?? [...document.querySelectorAll(".stage .card, .stage .step")].find(shown);
  const before = anchor && shown(anchor) ? anchor.getBoundingClientRect().top : null;
  change();
  if (!anchor?.isConnected) return;
  if (before !== null) window.scrollBy(0, anchor.getBoundingClientRect().top - before);
  else if (anchor === waiting) waiting.scrollIntoView({ block: "start" });
}

function remembered() {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

export function install() {
  const query = new URLSearchParams(location.search).get("present");
  // ?present=1 turns it on for this visit; ?present=0 off; otherwise what this device remembers.
  setPresent(query === null ? remembered() : query === "1", false);
  presentButton.addEventListener("click", () => setPresent(presentButton.getAttribute("aria-pressed") !== "true"));
  setFolded(false);
  settingsButton.addEventListener("click", () => keepInView(() => setFolded(!page.hasAttribute("data-folded"))));
}
