// The page's server for the end-to-end tests: target/site, the folder `make demo` serves (the
// site a static host would serve: index.html, www/ minified and bundled, pkg/), served by a small
// static server in the test's own process on a free 127.0.0.1 port. The tests never build:
// `make test` builds pkg/, target/site and dist/ once, before any of them runs (`make site dist`
// does the same by hand), so the files can run side by side and each starts in a second.
//
//   import { startServer } from "./server.mjs";
//   const server = await startServer();      // http://127.0.0.1:<free port>/
//   await server.close();
//
// Run `make demo` to look at the page by hand.

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, found from this file so the tests work in any clone. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The demo site as `make site` writes it and `make demo` serves it. */
export const SITE = path.join(REPO_ROOT, "target", "site");

/** The fix for a missing build, in every message that reports one. */
export const BUILD_FIRST = "run `make test`, or `make site dist` first (the tests never build)";

/** Fails at once, naming the fix, when a built file (a path from the repository root) is missing. */
export function requireBuilt(...files) {
  for (const file of files) {
    if (!fs.existsSync(path.join(REPO_ROOT, file))) throw new Error(`${file} is missing: ${BUILD_FIRST}`);
  }
}

/** Content types by extension, as Python's http.server (what `make demo` runs) sends them. */
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".csv": "text/csv; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/**
 * Serves the folder `root` on a free 127.0.0.1 port: GET and HEAD of its files, a folder's
 * index.html for the folder, 404 for anything else (nothing outside `root`). Resolves to
 * { url, close }, the url ending in "/". `cors`: with `Access-Control-Allow-Origin: *`, as a CDN.
 */
export function serve(root, { cors = false } = {}) {
  root = path.resolve(root);
  const server = http.createServer((req, res) => {
    let file = path.join(root, path.normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)));
    if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) file = path.join(file, "index.html");
    if (!(file === root || file.startsWith(root + path.sep)) || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("File not found");
      return;
    }
    const body = fs.readFileSync(file);
    res.writeHead(200, {
      "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "Content-Length": body.length,
      ...(cors ? { "Access-Control-Allow-Origin": "*" } : {}),
    });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections(); // the browser's kept-alive connections, so close is prompt
            server.close(() => done());
          }),
      }),
    );
  });
}

/**
 * Warns (once per file) when a source under `sources` (paths from the repository root) was
 * changed after `built` was written: the test would run what was built, not what was edited.
 */
export function warnIfStale(built, sources) {
  const then = fs.statSync(path.join(REPO_ROOT, built)).mtimeMs;
  const newer = (p) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (!stat) return null;
    if (!stat.isDirectory()) return stat.mtimeMs > then ? p : null;
    for (const name of fs.readdirSync(p)) {
      const found = newer(path.join(p, name));
      if (found) return found;
    }
    return null;
  };
  for (const source of sources) {
    const found = newer(path.join(REPO_ROOT, source));
    if (found) {
      console.warn(`warning: ${path.relative(REPO_ROOT, found)} changed after ${built} was built: run \`make site dist\` to test the change`);
      return;
    }
  }
}

/** Serves target/site (the page as `make demo` serves it); fails with the fix when it is not built. */
export async function startServer() {
  requireBuilt("target/site/index.html", "target/site/pkg/tao_agent_bg.wasm", "target/site/pkg/tao_agent.js");
  warnIfStale("target/site/index.html", ["index.html", "www", "src", "data"]);
  return serve(SITE);
}
