//! `<tao-stats>`: the run's counters in one bar — model calls, bad calls (the paper's
//! `n_badcalls`), steps, tokens (prompt / completion, shown only when the provider reports
//! them), elapsed time and why the run stopped.
//!
//! Each value sits in an element with `data-stat="…"`; the stop reason, shown in words, also
//! carries the raw reason (`answer`, `max_steps`, `token_budget`, `time_budget`, `aborted`,
//! `error`, `running`, …) in `data-reason`, so tests and embedders can read it whatever the
//! page's language. Registered in `elements.js`.

import { t } from "./i18n.js";
import { formatMs } from "./cards.js";

const FIELDS = ["n_calls", "n_badcalls", "steps", "tokens", "elapsed", "stop"];

export class TaoStats extends HTMLElement {
  #values = {};
  #reason = "idle";

  connectedCallback() {
    if (this.querySelector("[data-stat]")) return;
    const list = document.createElement("dl");
    list.className = "stats-list";
    for (const field of FIELDS) {
      const item = document.createElement("div");
      item.className = `stat stat-${field}`;
      const dt = document.createElement("dt");
      dt.dataset.i18n = `stat.${field}`;
      const dd = document.createElement("dd");
      dd.dataset.stat = field;
      item.append(dt, dd);
      list.append(item);
    }
    this.append(list);
    this.refresh();
  }

  /** Shows the stats of a finished trajectory. */
  show(stats, stop) {
    stats ??= {};
    this.#values = {
      n_calls: stats.n_calls,
      n_badcalls: stats.n_badcalls,
      steps: stats.steps,
      elapsed: stats.elapsed_ms,
      prompt_tokens: stats.prompt_tokens,
      completion_tokens: stats.completion_tokens,
    };
    this.#reason = stop?.reason ?? "idle";
    this.refresh();
  }

  /** Live counters while a run streams (the reason reads "running…"). */
  live(values) {
    this.#values = { ...this.#values, ...values };
    this.#reason = "running";
    this.refresh();
  }

  /** Empties the bar. */
  clear() {
    this.#values = {};
    this.#reason = "idle";
    this.refresh();
  }

  /** Redraws labels and values (also after a language change). */
  refresh() {
    for (const dt of this.querySelectorAll("dt[data-i18n]")) dt.textContent = t(dt.dataset.i18n);
    const v = this.#values;
    const set = (field, text) => {
      const dd = this.querySelector(`[data-stat="${field}"]`);
      if (dd) dd.textContent = text;
    };
    set("n_calls", v.n_calls ?? "–");
    set("n_badcalls", v.n_badcalls ?? "–");
    set("steps", v.steps ?? "–");
    set("elapsed", typeof v.elapsed === "number" ? formatMs(v.elapsed) : "–");
    // The offline model and some servers report no token counts: then there is no Tokens stat
    // at all (a dash would read as "zero" or "unknown yet").
    const tokens = (v.prompt_tokens ?? 0) + (v.completion_tokens ?? 0);
    set("tokens", tokens > 0 ? `${v.prompt_tokens ?? 0} / ${v.completion_tokens ?? 0}` : "");
    const tokensItem = this.querySelector(".stat-tokens");
    if (tokensItem) tokensItem.hidden = !(tokens > 0);
    const stop = this.querySelector('[data-stat="stop"]');
    if (stop) {
      stop.textContent = t("reason." + this.#reason);
      stop.dataset.reason = this.#reason;
      this.dataset.reason = this.#reason;
    }
    const bad = this.querySelector('[data-stat="n_badcalls"]');
    if (bad) bad.classList.toggle("has-bad", Number(v.n_badcalls) > 0);
  }
}
