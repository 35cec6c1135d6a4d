//! Draws a picture (the chart a tool returned: `{kind, title, x, y, xLabel, yLabel}`, see
//! picture.js) as inline SVG, from its numbers only. Every element is made with
//! `createElementNS` and every text goes in with `textContent`: nothing a tool or a trajectory
//! file says is ever parsed as markup. `trajectory.js` loads this module the first time an
//! observation carries a picture, so a page without charts never fetches it.
//!
//! A line chart is one `<polyline>` with a vertex per point (over a faint area); a scatter chart
//! is a `<circle>` per point. Axes get a few round ticks (text x values: a few evenly spaced
//! labels), the title goes on top, and the SVG is an image with a name a screen reader reads
//! ("Line chart: Closing price, 124 points; …"). The colours are the page's palette (`.chart-*`
//! in style.css), so the dark theme needs nothing here. The chart is drawn at its box's width in
//! CSS pixels, and drawn again when that width changes (a phone turned, the sidebar hidden):
//! text keeps its size instead of shrinking with a `viewBox`.

import { t, lang, addWords } from "./i18n.js";
import { checkPicture } from "./picture.js";

// The chart's words in English, added to the page's dictionary when it first loads, so the first
// load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese loads).
addWords({
  en: {
    "chart.line": "Line chart",
    "chart.scatter": "Scatter chart",
    "chart.colon": ": ",
    "chart.label": "{kind}{title}, {n} points; x from {x0} to {x1}, y from {low} to {high}",
    "chart.bad": "This chart cannot be drawn:",
  },
});

const SVG = "http://www.w3.org/2000/svg";
/** Roughly how wide a character of tick text is, in pixels (12 px system-ui digits). */
const CHAR = 7;
/** The space between the chart's frame and its text, in pixels. */
const PAD = 10;

/** Draws `value` into `figure` (an empty `<figure>`), now and whenever its width changes. */
export function drawChart(figure, value) {
  const { picture, error } = checkPicture(value);
  if (error) {
    figure.replaceChildren(node("p", "html", { class: "card-note" }, `${t("chart.bad")} ${error}`));
    return;
  }
  let drawn = 0;
  const draw = () => {
    const width = Math.floor(figure.clientWidth);
    if (width > 0 && width !== drawn) {
      drawn = width;
      figure.replaceChildren(svgFor(picture, width));
    }
  };
  draw();
  new ResizeObserver(draw).observe(figure);
}

/** The chart as an `<svg>` `width` pixels wide. */
function svgFor(picture, width) {
  const { x, y } = picture;
  const numbers = new Intl.NumberFormat(lang() === "zh" ? "zh-CN" : "en-US", { maximumFractionDigits: 6 });
  const height = width < 480 ? 210 : 250;

  // The value axis: round ticks that cover the data, about one per 45 px.
  const low = Math.min(...y);
  const high = Math.max(...y);
  const yTicks = ticks(low, high, Math.max(3, Math.round(height / 45)));
  const yText = yTicks.values.map((v) => tickText(v, yTicks.step));
  const left = PAD + 8 + CHAR * Math.max(...yText.map((s) => s.length));
  const top = PAD + (picture.title ? 24 : 8) + (picture.yLabel ? 16 : 0);
  const bottom = PAD + (picture.xLabel ? 40 : 22);
  const right = PAD + 8;
  const plotWidth = Math.max(20, width - left - right);
  const plotHeight = height - top - bottom;
  const [y0, y1] = [yTicks.values[0], yTicks.values.at(-1)];
  const py = (v) => top + plotHeight - ((v - y0) / (y1 - y0)) * plotHeight;

  // The other axis: numbers on a scale, or texts (dates, names) evenly spaced in their order.
  const numeric = x.every((v) => typeof v === "number");
  let px;
  let xLabels;
  if (numeric) {
    const xTicks = ticks(Math.min(...x), Math.max(...x), Math.max(2, Math.floor(plotWidth / 90)));
    const [x0, x1] = [xTicks.values[0], xTicks.values.at(-1)];
    px = (i) => left + ((x[i] - x0) / (x1 - x0)) * plotWidth;
    xLabels = xTicks.values.map((v) => [left + ((v - x0) / (x1 - x0)) * plotWidth, tickText(v, xTicks.step)]);
  } else {
    const n = x.length;
    px = (i) => (n === 1 ? left + plotWidth / 2 : left + (i / (n - 1)) * plotWidth);
    const shown = x.map((v) => short(String(v)));
    // The end labels hang inward from the ends (see below), so the first gap must hold one and
    // a half labels: the spacing is that, plus a little air.
    const room = 1.5 * CHAR * Math.max(...shown.map((s) => s.length)) + 16;
    const count = Math.min(n, Math.max(2, Math.floor(plotWidth / room) + 1));
    const picks = count === 1 || n === 1 ? [0] : [...new Set(Array.from({ length: count }, (_, k) => Math.round((k * (n - 1)) / (count - 1))))];
    xLabels = picks.map((i) => [px(i), shown[i]]);
  }

  const svg = node("svg", SVG, {
    class: "chart-svg",
    width: String(width),
    height: String(height),
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": describe(picture, numbers, low, high),
  });
  if (picture.title) svg.append(node("title", SVG, {}, picture.title));

  // Grid lines and value labels.
  const grid = node("g", SVG, { class: "chart-grid" });
  yTicks.values.forEach((v, k) => {
    const at = round(py(v));
    grid.append(node("line", SVG, { x1: left, x2: left + plotWidth, y1: at, y2: at }));
    grid.append(node("text", SVG, { class: "chart-tick", x: left - 8, y: at + 4, "text-anchor": "end" }, yText[k]));
  });
  svg.append(grid);
  svg.append(node("line", SVG, { class: "chart-axis", x1: left, x2: left + plotWidth, y1: top + plotHeight, y2: top + plotHeight }));
  xLabels.forEach(([at, text], k) => {
    // The first and last labels stay inside the chart: they hang from their ends.
    const anchor = xLabels.length > 1 && k === 0 ? "start" : xLabels.length > 1 && k === xLabels.length - 1 ? "end" : "middle";
    svg.append(node("line", SVG, { class: "chart-axis", x1: round(at), x2: round(at), y1: top + plotHeight, y2: top + plotHeight + 4 }));
    svg.append(node("text", SVG, { class: "chart-tick", x: round(at), y: top + plotHeight + 18, "text-anchor": anchor }, text));
  });

  // The data: one vertex, or one marker, per point.
  const points = y.map((v, i) => [round(px(i)), round(py(v))]);
  if (picture.kind === "line") {
    const base = round(top + plotHeight);
    const area = `M${points[0][0]},${base} ${points.map(([a, b]) => `L${a},${b}`).join(" ")} L${points.at(-1)[0]},${base} Z`;
    svg.append(node("path", SVG, { class: "chart-area", d: area }));
    svg.append(node("polyline", SVG, { class: "chart-line", points: points.map(([a, b]) => `${a},${b}`).join(" ") }));
    if (points.length === 1) svg.append(node("circle", SVG, { class: "chart-dot", cx: points[0][0], cy: points[0][1], r: 3 }));
  } else {
    const dots = node("g", SVG, { class: "chart-dots" });
    for (const [a, b] of points) dots.append(node("circle", SVG, { class: "chart-dot", cx: a, cy: b, r: 2.5 }));
    svg.append(dots);
  }

  // Words: the title, and the axes' names.
  if (picture.title) svg.append(node("text", SVG, { class: "chart-title", x: PAD, y: PAD + 13 }, picture.title));
  if (picture.yLabel) svg.append(node("text", SVG, { class: "chart-tick chart-name", x: PAD, y: top - 10 }, picture.yLabel));
  if (picture.xLabel) {
    svg.append(node("text", SVG, { class: "chart-tick chart-name", x: left + plotWidth / 2, y: height - PAD, "text-anchor": "middle" }, picture.xLabel));
  }
  return svg;
}

/** The chart in words, for a screen reader: kind, title, size, and the ranges of x and y. */
function describe(picture, numbers, low, high) {
  const first = picture.x[0];
  const last = picture.x.at(-1);
  const show = (v) => (typeof v === "number" ? numbers.format(v) : String(v));
  return t("chart.label")
    .replace("{kind}", t(picture.kind === "scatter" ? "chart.scatter" : "chart.line"))
    .replace("{title}", picture.title ? `${t("chart.colon")}${picture.title}` : "")
    .replace("{n}", String(picture.x.length))
    .replace("{x0}", show(first))
    .replace("{x1}", show(last))
    .replace("{low}", numbers.format(low))
    .replace("{high}", numbers.format(high));
}

/**
 * About `count` round tick values (steps of 1, 2, 2.5 or 5 times a power of ten) from at or
 * below `low` to at or above `high`, and the step. A flat series gets a band around its value.
 */
function ticks(low, high, count) {
  if (high === low) {
    const pad = Math.abs(low) > 0 ? Math.abs(low) * 0.1 : 1;
    [low, high] = [low - pad, high + pad];
  }
  const rough = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const values = [];
  for (let v = Math.floor(low / step) * step; v < high + step / 2; v += step) values.push(Number(v.toPrecision(12)));
  if (values.at(-1) < high) values.push(Number((values.at(-1) + step).toPrecision(12)));
  return { values, step };
}

/** A tick's text, with as many decimals as its step needs, and thousands grouped. */
function tickText(value, step) {
  const written = String(Number(step.toPrecision(6)));
  const decimals = written.includes(".") ? written.split(".")[1].length : Math.max(0, -Math.floor(Math.log10(step)));
  return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A long text label, cut to fit under the axis. */
function short(text) {
  return text.length > 12 ? `${text.slice(0, 11)}…` : text;
}

/** A coordinate with one decimal: enough for a screen, and short in the markup. */
function round(v) {
  return Math.round(v * 10) / 10;
}

/** An element in namespace `ns` ("html" for HTML), its attributes set, its text as text. */
function node(tag, ns, attrs = {}, text) {
  const element = ns === "html" ? document.createElement(tag) : document.createElementNS(ns, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}
