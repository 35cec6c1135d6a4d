// The wasm-tool sandbox's Worker: runs tool modules off the page's thread.
//
// A tool can compute for a while before its fuel runs out; on the page's own thread that
// would freeze scrolling, clicks and the streaming trajectory. Here it only keeps this
// Worker busy, and the page can terminate the Worker outright if a call takes too long.
//
// The sandbox (wasmi compiled to wasm, a few hundred KB) is fetched on the first message, not
// when the Worker starts; its glue (2 KB gzip) is imported with the Worker, statically, so that
// a bundler puts it in the Worker's one file (Vite's workers are one file unless told otherwise,
// and scripts/dist.sh rewrites the path for dist/).
//
// Messages in:  {id, op: "inspect", bytes}  or  {id, op: "run", bytes, stdin, limits}
// Messages out: {id, result}  or  {id, error: {message, kind, fatal}}
//   kind:  "invalid" | "refused" (the module), "limits" (bad limits), "load" (no sandbox),
//          "crash" (a bug in the sandbox itself)
//   fatal: true when this Worker should not be used again (the page then replaces it)

import initSandbox, { inspect, run } from "../pkg/tao_sandbox.js";

let sandbox = null;

/** The sandbox, initialised once: fetches and instantiates tao_sandbox_bg.wasm next to its glue. */
function loadSandbox() {
  sandbox ??= initSandbox();
  return sandbox;
}

self.onmessage = async (event) => {
  const { id, op, bytes, stdin, limits } = event.data;
  try {
    await loadSandbox();
  } catch (error) {
    sandbox = null; // try again on the next message
    const message = `could not load the wasm-tool sandbox (pkg/tao_sandbox.js): ${error.message}; ` +
      "build it with scripts/build-sandbox.sh";
    self.postMessage({ id, error: { message, kind: "load", fatal: false } });
    return;
  }
  try {
    const input = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const result = op === "inspect"
      ? inspect(input)
      : run(input, String(stdin ?? ""), limits ?? null);
    self.postMessage({ id, result });
  } catch (error) {
    // A SandboxError or a limits error carries a `kind`. Anything else is the sandbox
    // itself failing (a Rust panic aborts as a wasm trap): its memory may be in a broken
    // state, so this Worker asks to be replaced.
    const kind = typeof error?.kind === "string" ? error.kind : "crash";
    const message = kind === "crash"
      ? `the wasm-tool sandbox crashed (a bug in tao, not in the tool): ${error?.message ?? error}`
      : String(error?.message ?? error);
    self.postMessage({ id, error: { message, kind, fatal: kind === "crash" } });
  }
};
