// The page's server for the end-to-end tests: the README's own `make demo` (it builds, writes the
// site a static host would serve, target/site, with the page's code minified, and serves it with
// `python3 -m http.server` on 127.0.0.1), on a free port, so the tests open exactly what a
// newcomer opens.
//
//   import { startServer } from "./server.mjs";
//   const server = await startServer();      // http://127.0.0.1:<free port>/
//   await server.close();
//
// Run by hand to look at the page: `make demo`.

import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, found from this file so the tests work in any clone. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `make demo` on a free port and resolves once the page answers. */
export async function startServer({ timeoutMs = 300_000 } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  // Its own process group, so closing stops make and the Python server under it.
  const child = spawn("make", ["--no-print-directory", "demo", `PORT=${port}`], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const close = () =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once("exit", () => done());
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        done();
      }
    });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`make demo exited (${child.exitCode}):\n${output}`);
    const ok = await fetch(url + "pkg/tao_agent_bg.wasm", { method: "HEAD" }).then((r) => r.ok, () => false);
    if (ok) {
      if (!output.includes(`http://127.0.0.1:${port}/`)) throw new Error(`make demo did not print its URL:\n${output}`);
      return { url, close };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await close();
  throw new Error(`make demo did not serve ${url} within ${timeoutMs} ms:\n${output}`);
}
