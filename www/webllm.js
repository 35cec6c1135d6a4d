//! Adapters that let an in-browser model play tao's model: web-llm (WebGPU) and the browser's
//! built-in Prompt API. Neither ships with tao or runs in its CI (they download gigabytes of
//! weights); the shape of each matches tao's JS model API, and the web-llm one is tested with a
//! stand-in engine (tests/e2e/providers.test.mjs).
//!
//! A JS model is `(messages, { stop, tools, signal, onDelta }) => reply`: stream the text
//! through `onDelta` (it returns false once tao has read enough: the model invented an
//! `Observation`, or the user pressed Stop), and optionally return `{ usage }`.
//!
//! ```js
//! import * as webllm from "https://esm.run/@mlc-ai/web-llm";
//! import init, { Agent } from "./pkg/tao_agent.js";
//! import { webLlmModel } from "./www/webllm.js";
//! await init();
//! const engine = await webllm.CreateMLCEngine("Qwen2.5-1.5B-Instruct-q4f16_1-MLC");
//! const agent = new Agent({ model: webLlmModel(engine), tools: ["search", "calculator"], format: "mrkl" });
//! const trajectory = await agent.run("What is 17 * 23?", { onEvent: console.log });
//! ```

/**
 * tao's chat messages as plain chat messages: native tool results (format "tools") become user
 * turns, since small local models rarely speak the tool-calling protocol; use "mrkl" or "paper".
 */
function plainMessages(messages) {
  return messages.map((m) =>
    m.role === "tool" ? { role: "user", content: `Observation: ${m.content}` } : { role: m.role, content: m.content },
  );
}

/** A tao model backed by a web-llm `MLCEngine` (its OpenAI-style `chat.completions` API). */
export function webLlmModel(engine) {
  return async function webllm(messages, { stop, signal, onDelta }) {
    const chunks = await engine.chat.completions.create({
      messages: plainMessages(messages),
      stream: true,
      stream_options: { include_usage: true },
      stop: stop.length ? stop : undefined,
      temperature: 0,
    });
    // Stop generating as soon as tao has what it needs, or the user presses Stop: tao aborts
    // the signal in both cases (and from then on onDelta returns false).
    const interrupt = () => engine.interruptGenerate();
    signal.addEventListener("abort", interrupt);
    let usage;
    try {
      for await (const chunk of chunks) {
        const text = chunk.choices?.[0]?.delta?.content;
        if (text && !onDelta(text)) break;
        if (chunk.usage) usage = chunk.usage;
      }
    } finally {
      signal.removeEventListener("abort", interrupt);
    }
    return usage ? { usage: { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } } : undefined;
  };
}

/**
 * A tao model backed by the browser's built-in Prompt API (`LanguageModel`, Chrome 138+ with
 * the on-device model). A new session per call: tao sends the whole prompt every step.
 */
export function promptApiModel() {
  return async function promptApi(messages, { signal, onDelta }) {
    const plain = plainMessages(messages);
    const last = plain.pop();
    const session = await globalThis.LanguageModel.create({ initialPrompts: plain, signal });
    try {
      for await (const text of session.promptStreaming(last.content, { signal })) {
        if (!onDelta(text)) break;
      }
    } finally {
      session.destroy();
    }
  };
}
