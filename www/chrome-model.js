//! Chrome's built-in model (the Prompt API, `LanguageModel`: Chrome 148 opened it to web pages)
//! as a tao model: `provider: "chrome"` in the page, the element and the package's `Agent` (each
//! turns it into `model: chromeModel()`, constrained). Shown only where `LanguageModel` exists.
//!
//! - **One session per run**, made at the first call with the instructions (the system message)
//!   and the most predictable sampling the browser allows (top-K 1, temperature 0 where it may:
//!   experiments repeat); each call **clones** it and prompts the clone with the rest of the
//!   prompt, so the instructions are not sent again.
//! - **Kept to the format:** a constrained run's `constraint` becomes a RegExp
//!   `responseConstraint` (the grammar's role: the API has no stop sequences or grammars).
//! - Its availability is checked first ("unavailable" is an error that says so); while Chrome
//!   downloads its model, the progress is a note in the step.
//! - Stop and tao's own cut (an invented `Observation`) abort the call's signal.

/** `text` as a literal inside a RegExp. */
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The RegExp of one well-formed step (`constraint`: `{format, step, tools}`), as the in-tab
 * engine's grammar says it in GBNF (tao_wllama.js); `null` for the native formats.
 */
export function stepPattern({ format, step, tools = [] }) {
  const line = "[^\\n]+";
  const tool = tools.length ? `(${tools.map(literal).join("|")})` : null;
  const action = tool ? `(${tool}\\[[^\\]\\n]+\\]|Finish\\[[^\\]\\n]+\\])` : "Finish\\[[^\\]\\n]+\\]";
  const pattern = {
    mrkl: tool ? `Thought: ${line}\\n(Action: ${tool}\\nAction Input: ${line}|Final Answer: ${line})` : `Thought: ${line}\\nFinal Answer: ${line}`,
    paper: `Thought ${step}: ${line}\\nAction ${step}: ${action}`,
    act: `Action ${step}: ${action}`,
    cot: `Thought: ${line}\\nAnswer: ${line}`,
    standard: `Answer: ${line}`,
  }[format];
  return pattern ? new RegExp(`^${pattern}$`) : null;
}

/** Whether this browser has the Prompt API. */
export const available = () => typeof globalThis.LanguageModel?.create === "function";

/** An Error with one of tao's kinds (the core keeps it). */
const problem = (kind, message) => Object.assign(new Error(message), { kind });

/**
 * tao's messages as the Prompt API's: a tool result is the user's `Observation` (the text
 * formats already write it so).
 */
const plain = (messages) =>
  messages.map((m) => (m.role === "tool" ? { role: "user", content: `Observation: ${m.content}` } : { role: m.role, content: m.content }));

/** A tao model (`(messages, options) => …`) played by Chrome's built-in model, for one run. */
export function chromeModel() {
  let base = null;
  return async function chrome(messages, { constraint, signal, onDelta }) {
    const api = globalThis.LanguageModel;
    if (!available()) throw problem("config", "this browser has no built-in model (Chrome's Prompt API, LanguageModel): choose another model");
    const all = plain(messages);
    const system = all[0]?.role === "system" ? all.shift() : null;
    base ??= (async () => {
      const availability = await api.availability();
      if (availability === "unavailable") throw problem("config", "Chrome's built-in model is unavailable on this device (it needs the model's disk space and a capable GPU or CPU): choose another model");
      const params = (await api.params?.().catch(() => null)) ?? {};
      return api.create({
        initialPrompts: system ? [system] : [],
        // The most predictable sampling allowed: experiments repeat.
        topK: 1,
        temperature: params.defaultTemperature === undefined ? undefined : 0,
        signal,
        monitor(m) {
          m.addEventListener("downloadprogress", (e) => onDelta({ note: `Chrome is downloading its built-in model: ${Math.round((e.loaded ?? 0) * 100)}%` }));
        },
      });
    })();
    let session;
    try {
      session = await (await base).clone({ signal });
    } catch (error) {
      base = null; // tried again at the next call
      if (signal?.aborted) return undefined;
      throw error?.kind ? error : problem("model", `Chrome's built-in model could not start: ${error?.message ?? error}`);
    }
    const pattern = constraint ? stepPattern(constraint) : null;
    try {
      const stream = session.promptStreaming(all, { signal, ...(pattern ? { responseConstraint: pattern } : {}) });
      for await (const piece of stream) if (!onDelta(piece)) break;
    } catch (error) {
      if (signal?.aborted) return undefined;
      throw problem("model", `Chrome's built-in model failed: ${error?.message ?? error}`);
    } finally {
      session.destroy();
    }
    return undefined;
  };
}
