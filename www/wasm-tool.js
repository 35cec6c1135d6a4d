// Sandboxed WebAssembly tools for an Agent: a WASI preview1 command module becomes a tool.
//
// The action input arrives on stdin (the tool's one string, or its JSON object as text),
// stdout is the observation, and stderr or a non-zero exit status make it an error
// observation. The module runs in the sandbox (www/sandbox.js: wasmi in a Worker, with fuel,
// memory and output caps), which is fetched the first time a wasm tool is made: a page that
// never uses one never loads it.
//
//   import { wasmTool } from "./www/wasm-tool.js";
//   const units = await wasmTool({ name: "units", description: "Converts units, e.g. 10 km to mi.",
//                                  url: new URL("../pkg/tools/units.wasm", import.meta.url) });
//   agent.registerTool(units.spec, units.fn);

import { inspectWasmTool, runWasmTool, DEFAULT_TIMEOUT_MS } from "./sandbox.js";

/**
 * Makes a tool from a WASI module. `bytes` (Uint8Array or ArrayBuffer) or `url` gives the
 * module; `parameters` is the input's JSON Schema (without it the tool takes one string);
 * `limits` is `{fuel, memoryBytes, outputBytes}`. Rejects, naming the import, when the module
 * asks for anything beyond stdin/stdout/stderr, args, environ, clock, random and exit.
 * Resolves to `{spec, fn, info}` for `agent.registerTool(spec, fn)`.
 */
export async function wasmTool({ name, description, parameters, bytes, url, limits = {}, timeoutMs = DEFAULT_TIMEOUT_MS, needsApproval }) {
  if (!bytes) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`could not fetch the wasm tool ${url}: HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  bytes = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const info = await inspectWasmTool(bytes);
  const spec = { name, description, timeoutMs: timeoutMs + 1000 };
  if (parameters) spec.parameters = parameters;
  if (needsApproval) spec.needsApproval = true;
  const fn = async (input, { signal } = {}) => {
    const stdin = typeof input === "string" ? input : JSON.stringify(input);
    const out = await runWasmTool(bytes, stdin, limits, { timeoutMs, signal });
    const observation = out.isError ? `Error: ${out.observation}` : out.observation;
    return { observation, fuel: out.fuelUsed };
  };
  return { spec, fn, info };
}

/**
 * The example tools built from tools-wasm/ (scripts/build-sandbox.sh puts them in pkg/tools/;
 * the package has them in tools/), each described in English and, for a prompt in Chinese, in
 * Chinese (`zh`).
 */
export const EXAMPLE_TOOLS = [
  {
    name: "wordcount",
    description: "Counts the words, lines and characters of a text.",
    zh: "统计一段文本的词数、行数和字符数。",
    url: new URL("../pkg/tools/wordcount.wasm", import.meta.url),
  },
  {
    name: "units",
    description: "Converts a quantity between units of length, mass, temperature, volume or time, e.g. \"10 km to mi\" or \"72 F to C\".",
    zh: "在长度、质量、温度、体积或时间的单位之间换算一个量，例如 \"10 km to mi\" 或 \"72 F to C\"。",
    url: new URL("../pkg/tools/units.wasm", import.meta.url),
  },
];

/** The example tool `name` made (`{spec, fn, info}`, described in English), with its Chinese description (`zh`). */
export async function exampleTool(name) {
  const example = EXAMPLE_TOOLS.find((tool) => tool.name === name);
  return { ...(await wasmTool(example)), zh: example.zh };
}
