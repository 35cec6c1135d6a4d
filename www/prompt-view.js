//! `<tao-prompt>`: the Prompt inspector. A dialog showing, for one step, the exact request the
//! model received and the reply it sent back.
//!
//! Left, the request: every message in order with its role (system, user, assistant, tool), the
//! tool calls an assistant turn made and the call a tool message answers, the tool schemas sent
//! beside the messages in native tool calling, and an estimated token count per part. The
//! messages this step added to the previous step's prompt are highlighted: the prompt is
//! rendered from the trajectory, so step k's prompt is step k-1's plus what step k-1 did, and
//! seeing that growth *is* seeing the ReAct loop. Right, the reply: each model call's raw text
//! (a reply asked again says why), and where tao cut a reply at an invented `Observation`, the
//! kept text, a marker, and the cut text struck through. In a long run, the message that carries
//! the summary says which steps it stands in for.
//!
//! It knows nothing of agents: `show()` is handed the two prompts and the step (`inspect.js`
//! builds them). All model and tool text goes in with `textContent`, never as HTML. Registered
//! as `tao-prompt` in `elements.js`.

import { t, addWords } from "./i18n.js";
import { el, formatMs, usageSpeed } from "./cards.js";
import { toolCalls, modelCalls } from "./step.js";

// The prompt inspector's words in English, added to the page's dictionary when it first loads, so
// the first load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese
// loads).
addWords({
  en: {
    "prompt.title": "Prompt of step {n}",
    "prompt.grammar": "The grammar the reply was held to (GBNF: one step of the format, nothing else)",
    "prompt.close": "Close",
    "prompt.request": "What the model received",
    "prompt.reply": "What the model replied",
    "prompt.legend.added": "New in this prompt: not in the prompt of step {n}",
    "prompt.legend.kept": "Already in the prompt of step {n}",
    "prompt.first": "Step 1: the whole prompt is new (the instructions and the question), so all of it is marked new",
    "prompt.jump": "↓ Go to the new part",
    "prompt.rewritten": "The format changed in this step ({from} → {to}), so the prompt was rewritten: everything after the part both prompts share is marked new.",
    "prompt.rewritten.other": "The earlier prompt was rewritten, not only extended: everything after the part both prompts share is marked new.",
    "prompt.rewritten.summary": "A new summary stands in for steps 1–{n}, so the earlier prompt was rewritten, not only extended: everything after the part both prompts share is marked new.",
    "prompt.condensed": "Steps 1–{n} are condensed into the summary in this message",
    "prompt.added": "+ new",
    "prompt.answers": "answers {id} ({tool})",
    "prompt.calls": "tool call",
    "prompt.tools": "Tool schemas sent beside the messages (native tool calling)",
    "prompt.tokens": "≈ {n} tokens",
    "prompt.total": "≈ {n} tokens in all",
    "prompt.estimate": "Token counts are estimates: about 4 characters per token for Latin text, 1 token per CJK character; the model's own tokenizer counts differently.",
    "prompt.reported": "The model reported {n} prompt tokens.",
    "prompt.call": "Call {n}",
    "prompt.retried": "Asked again:",
    "prompt.cut": "✂ tao stopped reading here: the model began to invent an Observation",
    "prompt.cut.label": "What arrived after the cut (not used)",
    "prompt.saved": "{n} characters not used: received after the cut, or never generated because tao closed the stream.",
    "prompt.toolCall": "Tool call sent with this reply:",
    "prompt.noCalls": "No model call is recorded for this step.",
    "prompt.notSent": "Not sent yet: the run is paused before this model call. Step sends it.",
    "prompt.switch": "This step changed format ({from} → {to}): the prompt shown is the one its last call was sent.",
    "prompt.empty": "(empty)",
    "prompt.condensed.one": "Step 1 is condensed into the summary in this message",
    "prompt.rewritten.summary.one": "A new summary stands in for step 1, so the earlier prompt was rewritten, not only extended: everything after the part both prompts share is marked new.",
    "prompt.role.system": "system",
    "prompt.role.user": "user",
    "prompt.role.assistant": "assistant",
    "prompt.role.tool": "tool",
  },
});

/** CJK characters (ideographs, kana, hangul, CJK and full-width punctuation): about 1 token each. */
const CJK = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{2FA1F}]/gu;

/**
 * A rough token count, the same for every model: about 4 characters per token for Latin text
 * and code, about 1 token per CJK character. Real tokenizers differ (and add a few tokens per
 * message); when the provider reports its count, the dialog shows that too.
 */
export function estimateTokens(text) {
  const s = String(text ?? "");
  const cjk = s.match(CJK)?.length ?? 0;
  const rest = [...s].length - cjk;
  return cjk + Math.ceil(rest / 4);
}

/** A message as the model reads it, for the estimate: its text and its tool calls. */
function messageText(m) {
  const calls = (m.tool_calls ?? []).map((c) => `${c.name} ${json(c.arguments)}`);
  return [m.content ?? "", ...calls].join("\n");
}

/**
 * How many messages at the start of `messages` are the same as in `previous` (the common
 * prefix). What follows is what the step added; when the prefix is shorter than `previous`,
 * the earlier prompt was rewritten (a change of format), not only extended.
 */
export function commonPrefix(messages, previous) {
  let n = 0;
  while (n < messages.length && n < previous.length && sameMessage(messages[n], previous[n])) n++;
  return n;
}

function sameMessage(a, b) {
  return (
    a.role === b.role &&
    a.content === b.content &&
    (a.tool_call_id ?? null) === (b.tool_call_id ?? null) &&
    json(a.tool_calls ?? []) === json(b.tool_calls ?? [])
  );
}

/** A JSON value as text: strings as they are, anything else pretty-printed. */
function json(value) {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** `t(key)` with `{name}` placeholders filled in. */
function tf(key, values) {
  return t(key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** The key of the words for steps 1 to `n`: `key.one` when that is step 1 alone. */
const one = (key, n) => (n === 1 ? `${key}.one` : key);

/** Ids for the dialog's labels, unique even with two inspectors on a page. */
let made = 0;

/** "≈ 123 tokens". */
const tokens = (n) => tf("prompt.tokens", { n: n.toLocaleString("en-US") });

export class TaoPrompt extends HTMLElement {
  #dialog = null;
  /** The button that opened the dialog: focus goes back to it on close. */
  #opener = null;
  #id = `tao-prompt-${++made}`;

  connectedCallback() {
    if (this.#dialog) return;
    const dialog = el("dialog", { class: "prompt-dialog", "aria-labelledby": `${this.#id}-title` });
    // A click on the backdrop (outside the frame, which fills the dialog) closes it.
    dialog.addEventListener("click", (e) => {
      if (e.target === dialog) dialog.close();
    });
    dialog.addEventListener("close", () => {
      if (this.#opener?.isConnected) this.#opener.focus();
      this.#opener = null;
    });
    this.#dialog = dialog;
    this.append(dialog);
  }

  /** Whether the dialog is open. */
  get open() {
    return Boolean(this.#dialog?.open);
  }

  /**
   * Fills the dialog for step `index` and opens it. `prompt` and `previous` are
   * `agent.promptAt(trajectory, index)` and `(…, index - 1)` (`previous` is null for step 1);
   * `step` is the trajectory's step; `summary` the memo that stands in for the oldest steps, or
   * null; `format` the prompt format then in force. Focus returns to `opener` when the dialog
   * closes.
   */
  show({ index, prompt, previous, step, summary = null, format, grammar = null }, opener) {
    this.#opener = opener ?? null;
    const dialog = this.#dialog;
    const frame = el("div", { class: "prompt-frame" });

    const head = el("header", { class: "prompt-head" });
    const titles = el("div", { class: "prompt-titles" });
    titles.append(el("h2", { id: `${this.#id}-title` }, tf("prompt.title", { n: index })));
    const all = (prompt.messages ?? []).reduce((sum, m) => sum + estimateTokens(messageText(m)), 0) +
      (prompt.tools?.length ? estimateTokens(json(prompt.tools)) : 0);
    const meta = el("p", { class: "prompt-meta" });
    meta.append(
      el("span", { class: "chip" }, `${t("meta.format")} ${format}`),
      el("span", { class: "chip", "data-total-tokens": String(all) }, tf("prompt.total", { n: all.toLocaleString("en-US") })),
    );
    titles.append(meta);
    const close = el("button", { type: "button", class: "prompt-close", autofocus: "" }, t("prompt.close"));
    close.addEventListener("click", () => dialog.close());
    head.append(titles, close);

    const columns = el("div", { class: "prompt-columns" });
    const request = this.#request(index, prompt, previous, step, summary);
    // A constrained run's grammar (the model in the tab): every reply it could write.
    if (grammar) {
      const box = el("details", { class: "prompt-grammar" });
      box.append(el("summary", {}, t("prompt.grammar")), el("pre", { class: "reply-text" }, grammar));
      request.append(box);
    }
    columns.append(request, this.#reply(step, format));
    frame.append(head, columns);
    dialog.replaceChildren(frame);

    if (!dialog.open) dialog.showModal();
    // Side by side, the request column starts at the first new message, so the growth of the
    // prompt is on screen at once (the earlier messages are a scroll up). In one column the
    // title and legend come first, with a button to jump.
    if (index > 1 && this.#wide()) this.#reveal();
  }

  /** Whether the request and the reply are side by side (see the CSS's 860 px break). */
  #wide() {
    return matchMedia("(min-width: 861px)").matches;
  }

  /** Scrolls the first new message of the request to the top of its view, below the legend. */
  #reveal() {
    const first = this.querySelector('.prompt-msg[data-added="true"]');
    if (!first) return null;
    const wide = this.#wide();
    const scroller = this.querySelector(wide ? ".prompt-side" : ".prompt-columns");
    const sticky = wide ? this.querySelector(".prompt-side-head").offsetHeight : 0;
    const gap = first.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    scroller.scrollTop += gap - sticky - 12;
    return first;
  }

  close() {
    this.#dialog?.close();
  }

  /** The request column: the legend, the messages in order, the tool schemas. */
  #request(index, prompt, previous, step, summary) {
    const side = el("section", { class: "prompt-side", tabindex: "0", "aria-labelledby": `${this.#id}-request` });
    const top = el("div", { class: "prompt-side-head" });
    top.append(el("h3", { id: `${this.#id}-request` }, t("prompt.request")));

    const messages = prompt.messages ?? [];
    const before = previous?.messages ?? [];
    const kept = commonPrefix(messages, before);
    const legend = el("ul", { class: "prompt-legend" });
    const item = (kind, text) => {
      const li = el("li", { class: `prompt-legend-${kind}` });
      li.append(el("span", { class: "prompt-swatch", "aria-hidden": "true" }), el("span", {}, text));
      return li;
    };
    if (index > 1) {
      legend.append(item("added", tf("prompt.legend.added", { n: index - 1 })), item("kept", tf("prompt.legend.kept", { n: index - 1 })));
    } else {
      legend.append(item("added", t("prompt.first")));
    }
    top.append(legend);
    if (index > 1 && kept < messages.length) {
      const jump = el("button", { type: "button", class: "prompt-jump" }, t("prompt.jump"));
      jump.addEventListener("click", () => this.#reveal()?.focus({ preventScroll: true }));
      top.append(jump);
    }
    if (index > 1 && kept < before.length) {
      const sw = step?.switch;
      const condensed = summary?.after === index - 1 && tf(one("prompt.rewritten.summary", summary.covers), { n: summary.covers });
      top.append(el("p", { class: "prompt-note" }, sw ? tf("prompt.rewritten", { from: sw.from, to: sw.to }) : condensed || t("prompt.rewritten.other")));
    }
    const estimate = el("p", { class: "prompt-estimate" }, t("prompt.estimate"));
    const reported = modelCalls(step).at(-1)?.usage?.prompt_tokens;
    if (reported) estimate.append(" ", el("strong", {}, tf("prompt.reported", { n: reported.toLocaleString("en-US") })));
    top.append(estimate);
    side.append(top);

    // Which tool a call id names, so a tool message can say which call it answers.
    const callNames = new Map();
    for (const m of messages) for (const c of m.tool_calls ?? []) callNames.set(c.id, c.name);

    const list = el("ol", { class: "prompt-messages" });
    // The message the summary was added to (the question's, see `src/prompt.rs`).
    const holder = summary ? messages.findIndex((m) => m.role === "user" && (m.content ?? "").includes(summary.text)) : -1;
    const note = summary && tf(one("prompt.condensed", summary.covers), { n: summary.covers });
    messages.forEach((m, i) => list.append(messageItem(m, i >= kept, callNames, i === holder ? note : null)));
    side.append(list);

    if (prompt.tools?.length) side.append(toolSchemas(prompt.tools, `${this.#id}-tools`));
    return side;
  }

  /** The reply column: every model call of the step, the cut marked. */
  #reply(step, format) {
    const side = el("section", { class: "reply-side", tabindex: "0", "aria-labelledby": `${this.#id}-reply` });
    side.append(el("h3", { id: `${this.#id}-reply` }, t("prompt.reply")));
    const calls = modelCalls(step);
    if (!calls.length) side.append(el("p", { class: "prompt-note" }, t(step ? "prompt.noCalls" : "prompt.notSent")));
    if (step?.switch) side.append(el("p", { class: "prompt-note" }, tf("prompt.switch", { from: step.switch.from, to: step.switch.to })));
    calls.forEach((call, i) => {
      const last = i === calls.length - 1;
      const box = el("article", { class: "reply-call", "data-call": String(i + 1), "data-retried": call.retried ? "true" : "false" });
      const head = el("header", { class: "reply-call-head" });
      head.append(el("span", { class: "reply-call-name" }, tf("prompt.call", { n: i + 1 })));
      const facts = [formatMs(call.ms)];
      if (call.usage) facts.push(`${call.usage.prompt_tokens} / ${call.usage.completion_tokens} ${t("usage.tokens")}`);
      if (call.usage?.cached_tokens) facts.push(t("usage.cached").replace("{n}", String(call.usage.cached_tokens)));
      if (call.usage?.reply_per_second) facts.push(usageSpeed(call.usage));
      head.append(el("span", { class: "reply-call-facts" }, facts.filter(Boolean).join(" · ")));
      box.append(head);
      if (call.thinking?.text) {
        const thinking = el("details", { class: "reasoning" });
        thinking.append(el("summary", {}, t("card.reasoning")), el("pre", { class: "reasoning-text" }, call.thinking.text));
        box.append(thinking);
      }
      box.append(el("pre", { class: "reply-text" }, call.raw || t("prompt.empty")));
      if (typeof call.cut === "string") {
        box.append(el("p", { class: "cut-marker", "data-cut": "" }, t("prompt.cut")));
        const cut = el("pre", { class: "cut-text", "aria-label": t("prompt.cut.label") });
        cut.append(el("s", {}, call.cut));
        box.append(cut);
        if (call.saved_chars) box.append(el("p", { class: "prompt-note" }, tf("prompt.saved", { n: call.saved_chars })));
      }
      // A reply that could not be read: why, and what the parser said (the model was asked
      // the same request again).
      if (call.retried) {
        const why = el("p", { class: "reply-retried" });
        why.append(el("span", {}, t("prompt.retried")), " ", el("code", {}, call.retried.why ?? ""));
        box.append(why, el("p", { class: "reply-retried-message" }, call.retried.message ?? ""));
      }
      // In native tool calling the calls travel beside the text, so the raw text lacks them:
      // each call (the step's own, then those made beside it), its id, and what its tool said.
      const made = last ? toolCalls(step).filter((c) => c.action) : [];
      if (made.length && (format === "tools" || format === "auto")) {
        for (const c of made) {
          const callBox = el("div", { class: "reply-tool-call", "data-tool-call": c.action.id ?? "" });
          callBox.append(el("span", { class: "prompt-sub" }, t("prompt.toolCall")));
          if (c.action.id) callBox.append(" ", el("code", { class: "prompt-call-id" }, c.action.id));
          callBox.append(el("pre", { class: "prompt-code" }, `${c.action.tool} ${json(c.action.input)}`));
          const said = c.repair?.message ?? c.observation;
          if (said != null) callBox.append(el("span", { class: "prompt-sub" }, t("card.observation")), el("pre", { class: "prompt-code" }, said));
          box.append(callBox);
        }
      }
      side.append(box);
    });
    return side;
  }
}

/** One message of the prompt: role, what it adds or answers, its tokens, the `condensed` note, its text. */
function messageItem(m, added, callNames, condensed = null) {
  // Focusable from script only: the "go to the new part" button moves focus here.
  const item = el("li", { class: "prompt-msg", "data-role": m.role, "data-added": String(added), tabindex: added ? "-1" : null });
  const head = el("header", { class: "prompt-msg-head" });
  head.append(el("span", { class: "prompt-role" }, t(`prompt.role.${m.role}`)));
  if (added) head.append(el("span", { class: "prompt-added" }, t("prompt.added")));
  if (m.tool_call_id) {
    const name = callNames.get(m.tool_call_id);
    head.append(el("span", { class: "prompt-answers" }, tf("prompt.answers", { id: m.tool_call_id, tool: name ?? "?" })));
  }
  head.append(el("span", { class: "prompt-tokens" }, tokens(estimateTokens(messageText(m)))));
  item.append(head);
  if (condensed) item.append(el("p", { class: "prompt-condensed", "data-condensed": "" }, condensed));
  if (m.content || !m.tool_calls?.length) item.append(el("pre", { class: "prompt-text" }, m.content || t("prompt.empty")));
  if (m.tool_calls?.length) {
    const calls = el("ul", { class: "prompt-calls" });
    for (const c of m.tool_calls) {
      const li = el("li", { class: "prompt-call" });
      const line = el("p", { class: "prompt-call-line" });
      line.append(el("span", { class: "prompt-sub" }, t("prompt.calls")), " ", el("code", { class: "tool" }, c.name));
      line.append(" ", el("code", { class: "prompt-call-id" }, c.id));
      li.append(line, el("pre", { class: "prompt-code" }, json(c.arguments)));
      calls.append(li);
    }
    item.append(calls);
  }
  return item;
}

/** The tool schemas sent beside the messages (native tool calling). */
function toolSchemas(tools, id) {
  const box = el("section", { class: "prompt-tools", "aria-labelledby": id });
  const head = el("header", { class: "prompt-msg-head" });
  head.append(el("h4", { id }, t("prompt.tools")));
  head.append(el("span", { class: "prompt-tokens" }, tokens(estimateTokens(json(tools)))));
  box.append(head);
  const list = el("ul", { class: "prompt-tool-list" });
  for (const tool of tools) {
    const li = el("li", { class: "prompt-tool", "data-tool": tool.name });
    li.append(el("code", { class: "tool" }, tool.name));
    li.append(el("p", { class: "prompt-tool-description" }, tool.description ?? ""));
    if (tool.parameters !== undefined) li.append(el("pre", { class: "prompt-code" }, json(tool.parameters)));
    list.append(li);
  }
  box.append(list);
  return box;
}
