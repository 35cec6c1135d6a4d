//! The cards where a run asks the reader something: whether a tool call may run (approval),
//! what the model replies when You play it, and, while a stepped run is paused, where it stands
//! and what the next Step sends (the prompt about to go to the model, or the tool call about to
//! run). The studio drives the same loop a run uses; these are its only cards of its own.

import { t } from "./i18n.js";
import { el, card, formatInput, promptButton } from "./cards.js";

/**
 * Asks the reader to approve a tool call (the `approve` option of `agent.run`): a card with the
 * call and two buttons in the step being run (`live`: the view's `Live`). Resolves true or
 * false; `signal` aborting (Stop) denies. The `approval` event that follows replaces the card
 * with the decision.
 */
export function askApproval(live, request, signal) {
  const box = card("approval", t("card.approval"));
  // An MCP server's tool: the question names the server, where the input goes.
  const ask = request.server ? t("approval.askServer").replace("{server}", request.server) : t("approval.ask");
  box.append(el("p", { class: "card-text" }, ask.replace("{tool}", request.tool ?? "")));
  // A tool with one text field (run_js's code) shows that text as written, newlines and all.
  const fields = request.input && typeof request.input === "object" ? Object.values(request.input) : [];
  const shown = fields.length === 1 && typeof fields[0] === "string" ? fields[0] : formatInput(request.input);
  box.append(el("pre", { class: "input" }, shown));
  const buttons = el("p", { class: "approval-buttons" });
  const yes = el("button", { type: "button", class: "primary", "data-approve": "yes" }, t("approval.approve"));
  const no = el("button", { type: "button", "data-approve": "no" }, t("approval.deny"));
  buttons.append(yes, no);
  box.append(buttons);
  live.ask(live.step, box);
  return new Promise((resolve) => {
    const decide = (answer) => {
      yes.disabled = no.disabled = true;
      resolve(answer);
    };
    yes.addEventListener("click", () => decide(true), { once: true });
    no.addEventListener("click", () => decide(false), { once: true });
    signal?.addEventListener("abort", () => decide(false), { once: true });
    yes.focus({ preventScroll: true });
  });
}

/**
 * Asks the reader to play the model (the "You" provider, `humanModel` in drive.js): a card in
 * the step being run with the prompt the model would receive and a box for the reply. Resolves
 * with the reply text when Send is pressed (or Ctrl+Enter); `signal` aborting (Stop) rejects.
 *
 * What a newcomer needs is in view, not folded: on the first call the whole prompt (the format's
 * instructions, with the paper's worked example where the format has one), and always a
 * well-formed reply in the format in force, in the box as its placeholder and under it. A reply
 * that could not be read is explained first, in words (the `retried` of the step's `model_call`
 * event, which `live` keeps): what was wrong, then the format, before the prompt again.
 * `hints`: `{format, tools}` of the run, when the page knows them (else read from the prompt).
 */
export function askReply(live, messages, signal, hints = {}) {
  const index = live.step;
  const box = card("human", t("human.title"));
  const id = `reply-${index}-${Date.now()}`;
  const retried = live.retried;
  if (retried) {
    const why = t(`why.${retried.why}`);
    box.append(el("p", { class: "human-retry", id: `${id}-why` }, t("human.retried").replace("{why}", why.startsWith("why.") ? retried.why : why)));
    box.append(el("pre", { class: "said-text human-format", tabindex: "0" }, retried.message ?? ""));
  }
  // A keyboard hint only where there is a keyboard to give it for (not on a phone's screen).
  const keys = matchMedia("(pointer: fine)").matches ? t(/Mac|iP/.test(navigator.platform) ? "human.keys.mac" : "human.keys") : "";
  box.append(el("p", { class: "card-text" }, t("human.hint") + keys));
  // The first call shows the whole prompt, instructions first; later calls what is new since
  // the last turn, with the whole prompt folded below it.
  const list = Array.from(messages ?? []);
  const lastTurn = list.map((m) => m.role).lastIndexOf("assistant");
  for (const message of lastTurn >= 0 ? list.slice(lastTurn + 1) : list) box.append(promptMessage(message, lastTurn < 0));
  if (lastTurn >= 0) {
    const all = el("details", { class: "human-prompt" });
    all.append(el("summary", {}, t("human.prompt")));
    for (const message of list) all.append(promptMessage(message));
    box.append(all);
  }
  const sample = example(hints.format ?? formatOf(list), index, hints.tools ?? toolsOf(list));
  box.append(el("label", { for: id, class: "human-label" }, t("human.reply")));
  const text = el("textarea", { id, rows: "5", class: "human-reply", spellcheck: "false", "data-reply": "", placeholder: sample.act, "aria-describedby": `${id}-example${retried ? ` ${id}-why` : ""}` });
  const shown = el("div", { class: "human-example", id: `${id}-example`, "data-example": "" });
  shown.append(el("p", { class: "hint" }, t("human.example")), el("pre", { class: "said-text" }, [sample.act, sample.answer].filter(Boolean).join("\n\n")));
  const send = el("button", { type: "button", class: "primary", "data-send": "" }, t("human.send"));
  box.append(text, el("p", { class: "approval-buttons" }), shown);
  box.querySelector(".approval-buttons").append(send);
  live.insert(index, box);
  if (lastTurn >= 0) {
    text.focus();
  } else {
    // The first call: the card from its top, where the instructions are (after the page's own
    // follow of the run, which goes to the end a frame later).
    text.focus({ preventScroll: true });
    requestAnimationFrame(() => requestAnimationFrame(() => box.scrollIntoView({ block: "start" })));
  }
  return new Promise((resolve, reject) => {
    const done = () => {
      text.readOnly = send.disabled = true;
      box.remove();
      resolve(text.value);
    };
    send.addEventListener("click", done, { once: true });
    text.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        send.click();
      }
    });
    signal?.addEventListener("abort", () => {
      box.remove();
      reject(new Error("stopped"));
    }, { once: true });
  });
}

/**
 * The format a prompt asks for, read from what every format's prompt carries: the numbered
 * `Action n:` of the paper's formats (Act's without a Thought), the `Answer:` line of the
 * no-tool ones, else `Action Input:` (mrkl, and the text that `tools` and `auto` fall back to).
 */
function formatOf(messages) {
  const system = messages.find((m) => m.role === "system")?.content ?? "";
  if (/Action \d+:/.test(system)) return /Thought \d+:/.test(system) ? "paper" : "act";
  if (/Answer: </.test(system)) return /Thought/.test(system) ? "cot" : "standard";
  return "mrkl";
}

/** The tools a prompt names: the paper's `(1) search[entity]`, or mrkl's `Action: … [a,b]` list. */
function toolsOf(messages) {
  const system = messages.find((m) => m.role === "system")?.content ?? "";
  const paper = [...system.matchAll(/\(\d+\) (\w+)\[/g)].map((m) => m[1]);
  return paper.length ? paper : (/^Action: .*\[([\w,-]+)\]/m.exec(system)?.[1].split(",") ?? []);
}

/**
 * A well-formed reply in `format` for step `n`, with one of `tools`: `act`, the reply that acts,
 * and `answer`, the one that answers (the two replies a ReAct step can be).
 */
function example(format, n, tools = []) {
  const tool = tools.find((name) => name !== "lookup" && name !== "finish") ?? "search";
  const input = tool === "calculator" ? "6 * 7" : t("human.example.input");
  const thought = t("human.example.thought");
  const done = t("human.example.done");
  const answer = tool === "calculator" ? "42" : t("human.example.answer");
  switch (format) {
    case "paper":
      return { act: `Thought ${n}: ${thought}\nAction ${n}: ${tool}[${input}]`, answer: `Thought ${n}: ${done}\nAction ${n}: Finish[${answer}]` };
    case "act":
      return { act: `Action ${n}: ${tool}[${input}]`, answer: `Action ${n}: Finish[${answer}]` };
    case "cot":
      return { act: `Thought: ${thought}`, answer: `Answer: ${answer}` };
    case "standard":
      return { act: `Answer: ${answer}`, answer: "" };
    default:
      return { act: `Thought: ${thought}\nAction: ${tool}\nAction Input: ${input}`, answer: `Thought: ${done}\nFinal Answer: ${answer}` };
  }
}

/**
 * The card saying where a paused run stands and what the next Step does: `{kind: "model",
 * index, messages}` (before the model call: the prompt about to be sent) or `{kind: "tool",
 * index, tool, input}` (before the tool call). It carries the run's own Step, Resume and Stop
 * (bubbling `tao:step`, `tao:resume`, `tao:stop`), so the next press is where the reader is
 * reading, not a screen's height above on a phone.
 */
export function pauseCard(pause) {
  const box = card("pause", t(pause.kind === "tool" ? "paused.tool" : "paused.model").replace("{n}", String(pause.index)));
  box.setAttribute("data-pause", pause.kind);
  if (pause.kind === "tool") {
    const line = el("p", { class: "action-line" });
    line.append(el("code", { class: "tool" }, pause.tool ?? ""));
    box.append(line, el("pre", { class: "input" }, formatInput(pause.input)));
  } else {
    const list = Array.from(pause.messages ?? []);
    const lastTurn = list.map((m) => m.role).lastIndexOf("assistant");
    // Said as what it is: the whole prompt on the first call, else what this call adds to the
    // one before (its last turn and what came back), with the whole of it one click away.
    const fresh = lastTurn >= 0 ? list.slice(lastTurn) : list;
    const whole = fresh.length === list.length;
    box.append(el("p", { class: "card-text", "data-pause-part": whole ? "all" : "new" }, t(whole ? "paused.all" : "paused.new")));
    for (const message of fresh) box.append(promptMessage(message));
    if (!whole) {
      const all = el("details", { class: "human-prompt" });
      all.append(el("summary", {}, t("paused.whole").replace("{n}", String(list.length))));
      for (const message of list) all.append(promptMessage(message));
      box.append(all);
    }
  }
  const buttons = el("p", { class: "approval-buttons pause-buttons" });
  for (const [action, primary] of [["step", true], ["resume"], ["stop"]]) {
    const button = el("button", { type: "button", class: primary ? "primary" : null, "data-pause-action": action, title: action === "stop" ? null : t(`${action}.help`) }, t(action));
    button.addEventListener("click", () => button.dispatchEvent(new CustomEvent(`tao:${action}`, { bubbles: true })));
    buttons.append(button);
  }
  // Before a model call, the exact request in the Prompt view, beside them.
  if (pause.kind !== "tool") buttons.append(promptButton(pause.index, true));
  box.append(buttons);
  return box;
}

/** One message of a prompt: its role, then its text (and the tool calls it carries); `whole`: not cut to a scrolling box. */
function promptMessage(message, whole = false) {
  const box = el("div", { class: "said", "data-role": message.role ?? "" });
  box.append(el("span", { class: "said-role" }, message.role ?? ""));
  let text = message.content ?? "";
  for (const call of message.tool_calls ?? []) text += `${text ? "\n" : ""}→ ${call.name}(${formatInput(call.arguments)})`;
  // A long message scrolls inside its box, so the box takes the keyboard focus (to scroll it).
  box.append(el("pre", { class: whole ? "said-text said-whole" : "said-text", tabindex: "0" }, text));
  return box;
}
