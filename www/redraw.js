//! A whole trajectory drawn as cards: the result of a run, a fork, a paused run or an imported
//! file, by the same function. The trajectory is the single source of truth: when a run
//! resolves, `<tao-trajectory>` throws the live view away and draws this instead.
//!
//! A finished trajectory's Thought, Action and Observation cards each get an Edit button; the
//! editor behind it (`editor.js`) loads at the first press.

import { t, stepLabel } from "./i18n.js";
import * as cards from "./cards.js";
import { el, formatMs, usageSpeed } from "./cards.js";
import { toolCalls, modelCalls } from "./step.js";

const hasAnswer = (step) => step.answer !== null && step.answer !== undefined;

/**
 * The cards of `traj`, in reading order: its task, its steps with the memos written after each,
 * and how it stopped. `editing`: with Edit buttons.
 */
export function drawTrajectory(traj, editing) {
  const nodes = [cards.taskCard(traj.task, { model: traj.model, format: traj.react_format, lang: traj.lang })];
  const steps = traj.steps ?? [];
  for (const step of steps) {
    // The last step of a run that failed, was refused, cut or stopped may hold only a partial
    // reply: shown open, as it was seen while it streamed.
    nodes.push(stepBlock(step, editing, step === steps.at(-1) ? traj.stop : null));
    for (const memo of traj.memos ?? []) if (memo.after === step.index) nodes.push(cards.memoCard(memo));
  }
  // A final answer that no step carries (should not happen, but never hide an answer).
  if (!steps.some(hasAnswer) && traj.answer !== null && traj.answer !== undefined) nodes.push(cards.answerCard(traj.answer));
  const stop = traj.stop ?? {};
  if (stop.reason && stop.reason !== "answer") nodes.push(cards.stopCard(stop.reason, stop.message));
  return nodes;
}

function timingText(step) {
  const parts = [];
  const calls = modelCalls(step);
  const modelMs = calls.reduce((sum, c) => sum + (c.ms ?? 0), 0);
  if (calls.length) parts.push(`${t("timing.model")} ${formatMs(modelMs)}`);
  const first = calls.find((c) => typeof c.first_token_ms === "number");
  if (first) parts.push(`${t("timing.firstToken")} ${formatMs(first.first_token_ms)}`);
  // The tool's time once it has run (a run paused before the call has a 0 there, not a time).
  const own = toolCalls(step)[0];
  const ran = own?.observation !== null && own?.observation !== undefined && !own.repair && own.approved !== false;
  if (ran && typeof own.ms === "number") parts.push(`${t("timing.tool")} ${formatMs(own.ms)}`);
  const tokens = calls.reduce((sum, c) => sum + (c.usage ? (c.usage.prompt_tokens ?? 0) + (c.usage.completion_tokens ?? 0) : 0), 0);
  if (tokens) parts.push(`${tokens} ${t("usage.tokens")}`);
  // The model in the tab (and providers that say): the prompt read from the cache, the speeds.
  const cached = calls.reduce((sum, c) => sum + (c.usage?.cached_tokens ?? 0), 0);
  if (cached) parts.push(t("usage.cached").replace("{n}", String(cached)));
  const speed = calls.at(-1)?.usage;
  if (speed?.reply_per_second) parts.push(usageSpeed(speed));
  return parts.join(" · ");
}

/**
 * One step of a finished trajectory, in reading order (with Edit buttons when `editing`). `stop`:
 * how the run ended, when this is its last step.
 */
function stepBlock(step, editing = false, stop = null) {
  const block = cards.stepShell(step.index, timingText(step), true);
  const body = block.querySelector(".step-body");
  // Replies the model had to redo inside this step come first, in the order they happened.
  if (step.switch) body.append(cards.switchCard(step.switch.from, step.switch.to, step.switch.why));
  const calls = modelCalls(step);
  for (const call of calls) {
    if (!call.retried) continue;
    const c = cards.repairCard(call.retried.why, call.retried.message, t("card.retry"));
    c.append(cards.rawDetails(call.raw));
    body.append(c);
  }
  // The reasoning of the reply the step is made of (`redacted`: blocks the provider hid, kept
  // only to be sent back to it).
  const thinking = calls.at(-1)?.thinking;
  const hidden = thinking?.redacted?.length > 0;
  if (thinking?.text || hidden) body.append(cards.reasoningDetails(thinking.text, hidden));
  const tools = toolCalls(step);
  const own = tools[0];
  // A repaired reply is shown to the model as it was written (see `src/prompt.rs`), so an
  // edited thought there would change nothing the model reads: it gets no Edit button.
  const repaired = Boolean(step.repair || own?.repair);
  const edit = (box, kind) => (editing && !(kind === "thought" && repaired) ? editable(box, step, kind) : box);
  if (step.thought) body.append(edit(cards.thoughtCard(step.thought), "thought"));
  // Each tool call of the reply: the first (which a fork can edit), then the calls made beside
  // it. Those have no Edit button: a fork edits a step through its first action.
  tools.forEach((c, k) => {
    const add = (box, kind) => body.append(c === own && kind ? edit(cards.forCall(box, k), kind) : cards.forCall(box, k));
    add(cards.actionCard(c.action.tool, c.action.input), "action");
    if (typeof c.approved === "boolean") add(cards.approvalCard(c.action.tool, c.approved));
    if (c.repair) add(cards.repairCard(c.repair.why, c.repair.message));
    const obs = c.observation;
    if (obs !== null && obs !== undefined && !(c.repair && obs === c.repair.message)) add(cards.observationCard(obs, c.fuel, c.picture), "observation");
  });
  // A move that was no tool call: the answer, or the repair of a reply that could not be used.
  if (hasAnswer(step)) body.append(cards.answerCard(step.answer));
  if (step.repair) body.append(cards.repairCard(step.repair.why, step.repair.message));
  cards.numberCalls(body);
  // The note a failed step ends with says what the stop card below it says: drawn once.
  const said = stop?.message && `interrupted: ${stop.message}`;
  for (const note of step.notes ?? []) if (note !== said) body.append(cards.noteCard(note));
  const raw = calls.at(-1)?.raw ?? "";
  const unfinished = !tools.length && !step.repair && !hasAnswer(step) && ["refused", "truncated", "error", "aborted"].includes(stop?.reason);
  if (raw && unfinished) body.append(cards.partialCard(stop.reason, raw));
  else if (raw) body.append(cards.rawDetails(raw));
  return block;
}

let editIds = 0;

/**
 * A finished card with an Edit button beside it, which opens the editor (`editor.js`) on it. The
 * button sits next to the card rather than in it, so the card's text stays exactly the step's.
 */
function editable(box, step, kind) {
  const frame = el("div", { class: "editable", "data-edit": kind });
  // The button is named "Edit"; which card it edits is its description ("Step 2: Observation").
  const about = el("span", { id: `tao-edit-${++editIds}`, hidden: "" }, `${stepLabel(step.index)}: ${t("card." + kind)}`);
  const button = el("button", { type: "button", class: "edit-button", "aria-describedby": about.id }, t("edit.edit"));
  button.addEventListener("click", () => import("./editor.js").then((editor) => editor.openEditor(box, button, step, kind)));
  frame.append(box, button, about);
  return frame;
}
