// The wasm-tool sandbox's Worker: runs tool modules off the page's thread.
//
// A tool can compute for a while before its fuel runs out; on the page's own thread that
// would freeze scrolling, clicks and the streaming trajectory. Here it only keeps this
// Worker busy, and the page can terminate the Worker outright if a call takes too long.
//
// The sandbox (wasmi compiled to wasm, a few hundred KB) is imported on the first message,
// not when the Worker starts, so creating the Worker costs nothing until a tool is used.
//
// Messages in:  {id, op: "inspect", bytes}  or  {id, op: "run", bytes, stdin, limits}
// Messages out: {id, result}  or  {id, error: {message, kind, fatal}}
//   kind:  "invalid" | "refused" (the module), "limits" (bad limits), "load" (no sandbox),
//          "crash" (a bug in the sandbox itself)
//   fatal: true when this Worker should not be used again (the page then replaces it)

let sandbox = null;

/** The sandbox module, loaded and initialised once. */
function loadSandbox() {
  if (!sandbox) {
    sandbox = (async () => {
      const url = new URL("../pkg/tao_sandbox.js", import.meta.url);
      const module = await import(url);
      await module.default(); // fetches and instantiates tao_sandbox_bg.wasm next to it
      return module;
    })();
  }
  return sandbox;
}

self.onmessage = async (event) => {
  const { id, op, bytes, stdin, limits } = event.data;
  let module;
  try {
    module = await loadSandbox();
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
      ? module.inspect(input)
      : module.run(input, String(stdin ?? ""), limits ?? null);
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
