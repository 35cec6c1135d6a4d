//! Where a file of the package is, for the one host that moves the package's code without its
//! files: Vite's dev server serves a dependency's code from `node_modules/.vite/deps/` (pre-bundled)
//! and leaves what that code loads by URL (the wasm, the offline data, the sandbox's Worker) in
//! the package's own folder, which it serves too. A URL that points beside code moved there is
//! pointed back at the package; any other URL is returned as it is. (Elsewhere, and in builds,
//! the literal `new URL("./file", import.meta.url)` at each call site is what bundlers follow.)

const MOVED = "/node_modules/.vite/deps/";

/** `url`, or the same file in the package's folder when the dev server moved the code beside it. */
export function packaged(url) {
  const at = url.pathname.indexOf(MOVED);
  if (at < 0) return url;
  const file = url.pathname.slice(at + MOVED.length);
  return new URL(`${url.pathname.slice(0, at)}/node_modules/tao-agent/${file}`, url);
}
