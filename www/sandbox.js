// The page's side of the wasm-tool sandbox: inspect and run WASI tool modules in a Worker.
//
// Nothing here loads until it is used: the first call creates the Worker
// (www/sandbox-worker.js), which in turn fetches the sandbox's wasm. So a page that never
// registers a wasm tool never pays for the interpreter.
//
// Two limits stop a runaway tool. Fuel (inside the sandbox) is the real one: deterministic,
// and it ends the run with an outcome the model can read. The wall-clock timeout here is the
// belt and braces for everything fuel does not cover (compiling a huge module, a bug): when a
// call takes longer than `timeoutMs`, the Worker is terminated, the call rejects, and the
// next call starts a fresh Worker.
//
//   import { inspectWasmTool, runWasmTool } from "./www/sandbox.js";
//   const info = await inspectWasmTool(bytes);   // {imports, initialMemoryBytes, sizeBytes}
//   const out = await runWasmTool(bytes, "10 km to mi", { fuel: 200_000_000 });
//   out.observation  // "10 km = 6.21371 mi\n"; out.isError, out.fuelUsed, out.stopped ...

import { packaged } from "./packaged.js";

/** Default wall-clock limit per call, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** An error from the sandbox: `kind` is "invalid", "refused", "limits", "load", "crash" or "timeout". */
export class SandboxError extends Error {
  constructor(message, kind) {
    super(message);
    this.name = "SandboxError";
    this.kind = kind;
  }
}

let worker = null;
let nextId = 1;
/** Calls waiting for the current Worker: id -> {resolve, reject, timer}. */
const pending = new Map();

/** The current Worker, created on first use. */
function currentWorker() {
  if (worker) return worker;
  // Bundlers follow this exact form, a Worker of a `new URL(…, import.meta.url)`, to build the
  // Worker's file; under Vite's dev server it is found in the package's folder (packaged.js).
  const beside = new URL("./sandbox-worker.js", import.meta.url);
  worker =
    packaged(beside) === beside
      ? new Worker(new URL("./sandbox-worker.js", import.meta.url), { type: "module" })
      : new Worker(packaged(beside), { type: "module" });
  worker.onmessage = (event) => {
    const { id, result, error } = event.data;
    const call = pending.get(id);
    if (!call) return; // already timed out
    pending.delete(id);
    clearTimeout(call.timer);
    if (error) {
      if (error.fatal) restart();
      call.reject(new SandboxError(error.message, error.kind));
    } else {
      call.resolve(result);
    }
  };
  // The Worker's script itself failed (could not be fetched or parsed).
  worker.onerror = (event) => {
    event.preventDefault();
    failAll(`the wasm-tool sandbox worker failed to start: ${event.message ?? "unknown error"}`, "load");
  };
  return worker;
}

/** Terminates the Worker; the next call creates a new one. */
function restart() {
  if (worker) worker.terminate();
  worker = null;
}

/** Rejects every waiting call and drops the Worker they were waiting on. */
function failAll(message, kind) {
  restart();
  for (const call of pending.values()) {
    clearTimeout(call.timer);
    call.reject(new SandboxError(message, kind));
  }
  pending.clear();
}

/** Sends one request and waits for its answer, at most `timeoutMs`, or until `signal` aborts. */
function request(message, timeoutMs, signal) {
  const target = currentWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    // Stop reaches the tool: the Worker running it is terminated (the next call starts another).
    const stop = () => {
      if (!pending.has(id)) return;
      failAll("the wasm-tool sandbox was restarted because a run was stopped", "stopped");
    };
    if (signal?.aborted) queueMicrotask(stop);
    signal?.addEventListener("abort", stop, { once: true });
    const timer = setTimeout(() => {
      pending.delete(id);
      // Calls are run one after another in the Worker, so the ones queued behind this one
      // die with it; they are told why.
      failAll("the wasm-tool sandbox was restarted because another call ran past its time limit", "timeout");
      reject(new SandboxError(
        `the wasm tool ran longer than ${timeoutMs} ms and was stopped (wall-clock limit); ` +
          "its fuel budget would have stopped it later: lower the fuel or raise timeoutMs",
        "timeout",
      ));
    }, timeoutMs);
    pending.set(id, { resolve, reject, timer });
    target.postMessage({ id, ...message });
  });
}

/** Bytes as a Uint8Array (a copy is sent to the Worker; the caller keeps its bytes). */
function asBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  throw new TypeError("a wasm tool must be given as a Uint8Array or an ArrayBuffer");
}

/**
 * Checks a module before it is registered as a tool. Resolves to
 * `{imports, initialMemoryBytes, sizeBytes}`; rejects with a SandboxError naming what is
 * wrong (for example the first import outside the allow-list).
 */
export function inspectWasmTool(bytes, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
  return request({ op: "inspect", bytes: asBytes(bytes) }, timeoutMs);
}

/**
 * Runs a tool once with `stdin` as its input. `limits` is `{fuel, memoryBytes, outputBytes}`
 * (each optional). Resolves to `{stdout, stderr, exitCode, fuelUsed, stopped, observation,
 * isError}` whatever the tool did; rejects only when the module is unusable, the limits are
 * bad, the call ran past `timeoutMs`, or `signal` aborted (the run was stopped).
 */
export function runWasmTool(bytes, stdin, limits = {}, { timeoutMs = DEFAULT_TIMEOUT_MS, signal } = {}) {
  return request({ op: "run", bytes: asBytes(bytes), stdin: String(stdin ?? ""), limits }, timeoutMs, signal);
}
