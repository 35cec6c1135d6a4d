//! The package's styles, shipped inside its JavaScript so they apply from the first paint.
//!
//! `tao-agent-css.js` holds the text of `tao-agent.css` (the demo page's sheet and the
//! element's own rules; `scripts/dist.sh` writes it): it arrives with the code that needs it,
//! where a `<link>` in the shadow root was fetched after the element first drew, unstyled. From
//! that one text, made into sheets once per page:
//!
//! - `shadowSheet(theme)`: what a `<tao-agent>` adopts into its shadow root;
//! - a `<tao-trajectory>` placed on a page by itself (no `<tao-agent>` around it, no page sheet)
//!   adopts the same rules wrapped in `@scope (tao-trajectory)`: they style that view only and
//!   no element of the host page (`adoptStyles`, hooked into the class below).
//!
//! Two rewrites of the text, both for embedding. Themes: the dark palette is the page's own
//! `@media (prefers-color-scheme: dark)` blocks, so `theme="dark"` makes that condition always
//! true and `theme="light"` never (`auto` leaves it to the system). Sizes: the page's sheet is
//! in rem, which inside Shadow DOM still means the host page's root font size, which the host
//! sets for its own reasons (`* { font: 20px serif }` makes it 20px); here a rem is 16px, the
//! size the sheet was designed at (browser zoom still scales it).

import css from "./tao-agent-css.js";
import { TaoTrajectory } from "./trajectory.js";

/** A `theme` attribute's value as one of the three themes: "light", "dark", or "auto". */
export function themeOf(value) {
  return value === "light" || value === "dark" ? value : "auto";
}

/** The sheet's text in `theme` (the dark condition left as it is, always true, or never), its rems in px. */
function themed(theme) {
  const dark = { auto: "$&", light: "(max-width: -1px)", dark: "(min-width: 0)" }[theme];
  return css.replace(/\(prefers-color-scheme:\s*dark\)/g, dark).replace(/(\d*\.?\d+)rem\b/g, (_, n) => `${Number(n) * 16}px`);
}

/** Makes a constructable sheet from `text`. */
function sheetOf(text) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text);
  return sheet;
}

const shadowSheets = {};
/** The sheet a `<tao-agent>`'s shadow root adopts, in `theme` (made once per page). */
export function shadowSheet(theme) {
  return (shadowSheets[theme] ??= sheetOf(themed(theme)));
}
const ours = (sheet) => Object.values(shadowSheets).includes(sheet);

/** Where a view's theme attribute selects it, for the three themes. */
const THEME_SELECTOR = { auto: ':not([theme="light"], [theme="dark"])', light: '[theme="light"]', dark: '[theme="dark"]' };

const scopedSheets = {};
/**
 * The sheet for views named `tag` in `theme`, on a page of their own: the rules scoped to the
 * view, which is given the box and type the page's `body` and `.trajectory` rules give it there.
 */
function scopedSheet(tag, theme) {
  // Its box and type, and no welcome text (the demo page's, which speaks of its menu).
  const own = `:scope{display:grid;gap:14px;padding:12px;border-radius:12px;background:var(--bg);color:var(--text);
    font:16px/1.55 var(--font);-webkit-font-smoothing:antialiased}:scope>.empty{display:none}`;
  return (scopedSheets[`${tag} ${theme}`] ??= sheetOf(`@scope (${tag}${THEME_SELECTOR[theme]}) {${themed(theme)}${own}}`));
}

/**
 * Styles `view`, a trajectory view just connected or given a new `theme`, unless where it is
 * already has the rules (inside a `<tao-agent>`): adds its scoped sheet to the document (or the
 * shadow root) that holds it.
 */
function adoptStyles(view) {
  const root = view.getRootNode();
  if (!("adoptedStyleSheets" in root) || root.adoptedStyleSheets.some(ours)) return;
  const sheet = scopedSheet(view.localName, themeOf(view.getAttribute("theme")));
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

// The demo page styles its views with its own sheet and leaves this hook empty; the package fills it.
if (globalThis.CSSStyleSheet) TaoTrajectory.adoptStyles = adoptStyles;
