// `tao-agent/wasm-tool`: a WASI preview1 command module as a tool, run in wasmi in a Worker under
// budgets. In a browser only: it needs Worker.
import type { ToolSpecInit, ToolFunction } from "./tao.js";

/** What a wasm tool is made from: `bytes` or `url` gives the module; `parameters` its input's JSON Schema. */
export interface WasmToolInit {
  name: string;
  description: string;
  parameters?: object;
  bytes?: Uint8Array | ArrayBuffer;
  url?: string | URL;
  limits?: { fuel?: number; memoryBytes?: number; outputBytes?: number };
  timeoutMs?: number;
  needsApproval?: boolean;
}

/** Makes a tool of a WASI module: register it with `agent.registerTool(tool.spec, tool.fn)`. */
export function wasmTool(init: WasmToolInit): Promise<{
  spec: ToolSpecInit;
  fn: ToolFunction;
  info: { imports: string[]; initialMemoryBytes: number; sizeBytes: number };
}>;

/** The example tools the package ships (`tools/`): `wordcount` and `units` (the units scenario's), described in English and, `zh`, in Chinese. */
export const EXAMPLE_TOOLS: { name: string; description: string; zh: string; url: URL }[];

/** The example tool `name` made, with its Chinese description (`zh`). */
export function exampleTool(name: "wordcount" | "units"): Promise<{
  spec: ToolSpecInit;
  fn: ToolFunction;
  info: { imports: string[]; initialMemoryBytes: number; sizeBytes: number };
  zh: string;
}>;
