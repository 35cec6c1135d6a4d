//! One way to run an agent into a view, for every place that runs one: the page's run (Run,
//! Step, Pause, Resume), a fork, each column of Compare, each benchmark job, and `<tao-agent>`;
//! the places that only render prompts with an agent (the Prompt view, Export JSONL) borrow one
//! the same way.
//!
//! - `withAgent` lends an agent to its user and frees its memory in the wasm after, however the
//!   use ends (a run's agent lives only as long as its run).
//! - `drive` runs it for one stretch: `run` from a task, `resume` from a trajectory until it ends
//!   or pauses, `next` to the next pause point. Each event goes to the view (`<tao-trajectory>`),
//!   a tool call that needs approval is asked there, and the counters follow as it goes.
//! - `count` is the live counting, in one function: the trajectory's own `stats` (computed by
//!   the core from the steps) are what a view shows once a stretch returns; meanwhile the events
//!   are counted by the same rules, so the two never disagree.
//! - `humanModel` (You play the model in a view) and `modelLabel` (what a trajectory will call
//!   its model) are the same for the page and the element.

import { t } from "./i18n.js";

/**
 * Counts one event into `live` (`{n_calls, n_badcalls, steps}`): the core's own counts, from
 * the trajectory (the `stats` of each `model_call` event, counting the call it begins), and the
 * step number as soon as a step begins.
 */
export function count(live, ev) {
  if (ev.type === "step") live.steps = ev.index;
  else if (ev.type === "model_call") ({ n_calls: live.n_calls, n_badcalls: live.n_badcalls, steps: live.steps } = ev.stats);
}

/**
 * Runs `agent` for one stretch into `view` (a `<tao-trajectory>`, or none): `how` is "run" (from
 * the task `from`), "resume" (on from the trajectory `from` until it ends, or `pause` aborts) or
 * "next" (to its next pause point); `signal` aborting stops it. Each event goes to the view, then
 * to `onEvent`; the counts so far (`{n_calls, n_badcalls, steps, elapsed}`, going on from the
 * stats of `from`) to `onCounts` after each event but the streamed tokens, and every 100 ms for
 * the clock. Resolves with the trajectory the agent returns, whose `stats` are then the truth.
 */
export async function drive(agent, how, from, { view, signal, pause, onEvent, onCounts } = {}) {
  const base = from?.stats ?? {};
  const live = { n_calls: base.n_calls ?? 0, n_badcalls: base.n_badcalls ?? 0, steps: from?.steps?.length ?? 0 };
  const t0 = performance.now() - (base.elapsed_ms ?? 0);
  const tell = () => onCounts?.({ ...live, elapsed: performance.now() - t0 });
  tell();
  const clock = onCounts && setInterval(tell, 100);
  const options = {
    signal,
    pause,
    approve: view && ((request) => view.askApproval(request, signal)),
    onEvent: (ev) => {
      count(live, ev);
      view?.handleEvent(ev);
      onEvent?.(ev);
      if (ev.type !== "token") tell();
    },
  };
  try {
    return await agent[how](from, options);
  } finally {
    clearInterval(clock);
  }
}

/** Lends the agent that `making` resolves to to `use`, and frees it after, however `use` ends. */
export async function withAgent(making, use) {
  const agent = await making;
  try {
    return await use(agent);
  } finally {
    free(agent);
  }
}

/** Frees an agent's memory in the wasm (a second free does nothing). */
export function free(agent) {
  try {
    agent?.free?.();
  } catch {
    /* already freed */
  }
}

/**
 * The "You" provider, as a model function: `view` shows the prompt the model would receive and
 * a box for the reply, and what the reader types is read exactly as a model's reply would be
 * (repairs, retries and all); the tools that follow are real. `hints`, `{format, tools}` of the
 * run when known, shape the example of a reply the view shows. Its name, `human`, is how the
 * trajectory records the model (`js:human`): set here, since the page's bundle drops names.
 */
export function humanModel(view, hints) {
  const model = (messages, { signal }) => view.askReply(messages, signal, hints);
  return Object.defineProperty(model, "name", { value: "human" });
}

/**
 * The model as the trajectory of a run with these settings will name it, for the task card
 * before the run returns (which says it in words: `modelName` in cards.js): `scripted:<scenario>`
 * offline, `js:<name>` for a model function (You: `js:human`), else `<provider>:<model>`.
 */
export function modelLabel({ provider, model, scenario }) {
  if (typeof model === "function") return model.name ? `js:${model.name}` : "js";
  if (provider === "human") return "js:human";
  if (provider === "chrome") return "js:chrome";
  if (provider && provider !== "scripted") return `${provider}:${model ?? ""}`;
  return scenario ? `scripted:${scenario}` : "scripted";
}

/** The message of anything thrown by the wasm (an Error, or a bare string from older builds). */
export function messageOf(e) {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  return e?.message ?? String(e);
}

/** What a failed run says: "The run failed: …" (`key`: the words before, such as "error.fork"). */
export const failed = (e, key = "error.run") => `${t(key)} ${messageOf(e)}`;
