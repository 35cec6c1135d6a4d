//! The Base URL field's suggestions: the usual OpenAI-compatible servers. Loaded by provider.js
//! when a provider over HTTP is first chosen (the first screen does not need them).

const SERVERS = [
  ["https://api.openai.com/v1", "OpenAI"],
  ["http://localhost:11434/v1", "Ollama"],
  ["http://localhost:1234/v1", "LM Studio"],
  ["http://localhost:8080/v1", "llama.cpp server"],
  ["http://localhost:8000/v1", "vLLM"],
  ["https://openrouter.ai/api/v1", "OpenRouter"],
  ["https://api.groq.com/openai/v1", "Groq"],
  ["https://api.deepseek.com/v1", "DeepSeek"],
  ["https://dashscope.aliyuncs.com/compatible-mode/v1", "DashScope (Qwen)"],
  ["https://generativelanguage.googleapis.com/v1beta/openai", "Gemini"],
  ["https://api.anthropic.com", "Anthropic"],
];

/** Fills the `<datalist id="base-urls">` (once). */
export function fill() {
  const list = document.querySelector("#base-urls");
  if (!list || list.childElementCount) return;
  for (const [value, name] of SERVERS) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = name;
    list.append(option);
  }
}
