//! A picture: the chart a tool returns beside its observation (`{observation, picture}`), kept
//! in the trajectory and drawn by the page, never shown to the model. Its shape is the core's
//! `Picture` (src/bindings/types.d.ts): `{kind: "line" | "scatter", title?, x, y, xLabel?,
//! yLabel?}`, one point per `x`/`y` pair.
//!
//! A picture is untrusted data: model-written code makes it in the run_js sandbox, and an
//! imported trajectory file can hold anything. So it is checked at each border it crosses, with
//! the same function: inside the sandbox (so `plot()` with bad arguments is an error the model
//! reads), when the page takes it from the sandbox, and before the page draws it.
//!
//!   checkPicture({x: [1, 2], y: [3, 4]})   // {picture: {kind: "line", x: [1, 2], y: [3, 4]}}
//!   checkPicture({x: [1], y: ["a"]})       // {error: "y[0] is \"a\", not a finite number"}
//!   pictureSummary(picture)                // "a line chart of 2 points"

/** Most points a chart may have (checkPicture's own copy of it must match: it is sent as source). */
export const MAX_POINTS = 5000;

/**
 * Checks a picture and returns `{picture}`, a fresh plain object with only the known fields,
 * or `{error}` saying what is wrong. Self-contained (no imports, no outer names): the run_js
 * sandbox receives it as source text.
 */
export function checkPicture(value) {
  const MAX_POINTS = 5000;
  const MAX_TEXT = 200;
  const FIELDS = ["x", "y", "kind", "title", "xLabel", "yLabel"];
  const show = (v) => (typeof v === "string" ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v) : String(v));
  const list = (v) => (Array.isArray(v) ? v : ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v) : null);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { error: "give an object: {x: [...], y: [...], kind: \"line\" or \"scatter\", title: \"...\"}" };
  }
  const unknown = Object.keys(value).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined) return { error: `unknown option ${show(unknown)}; the options are ${FIELDS.join(", ")}` };
  const x = list(value.x);
  const y = list(value.y);
  if (!x || !y) return { error: `x and y must be arrays (x is ${x ? "one" : typeof value.x}, y is ${y ? "one" : typeof value.y})` };
  if (x.length !== y.length) return { error: `x and y must have the same length (x has ${x.length}, y has ${y.length})` };
  if (x.length === 0) return { error: "x and y are empty: there is nothing to plot" };
  if (x.length > MAX_POINTS) return { error: `too many points (${x.length}); at most ${MAX_POINTS}` };
  for (let i = 0; i < y.length; i++) {
    if (typeof y[i] !== "number" || !Number.isFinite(y[i])) {
      const where = typeof x[i] === "string" || typeof x[i] === "number" ? ` (at x = ${show(x[i])})` : "";
      return { error: `y[${i}] is ${show(y[i])}, not a finite number${where}` };
    }
  }
  for (let i = 0; i < x.length; i++) {
    const ok = typeof x[i] === "string" ? x[i].length <= MAX_TEXT : typeof x[i] === "number" && Number.isFinite(x[i]);
    if (!ok) return { error: `x[${i}] is ${show(x[i])}: each x must be a finite number or a short text` };
  }
  const kind = value.kind ?? "line";
  if (kind !== "line" && kind !== "scatter") return { error: `kind must be "line" or "scatter", not ${show(kind)}` };
  const picture = { kind, x: [...x], y: [...y] };
  for (const key of ["title", "xLabel", "yLabel"]) {
    if (value[key] === undefined || value[key] === null) continue;
    if (typeof value[key] !== "string") return { error: `${key} must be a text, not ${show(value[key])}` };
    picture[key] = value[key].slice(0, MAX_TEXT);
  }
  return { picture };
}

/** What a checked picture is, in words: "a line chart of 124 points: Closing price". */
export function pictureSummary(picture) {
  const title = picture.title ? `: ${picture.title}` : "";
  return `a ${picture.kind} chart of ${picture.x.length} point${picture.x.length === 1 ? "" : "s"}${title}`;
}
