#!/usr/bin/env node
// Type-checks what a user of the package writes, with tsc --strict against dist/tao.d.ts:
// the README's examples in its "Embed" section (```ts and ```js blocks, and the module scripts
// of ```html blocks, each written to target/types/ as a file of its own), the example site's
// scripts and tests/types/*.ts (see tests/types/tsconfig.json). Then the declarations where a
// user's project differs: a Node project without the DOM library (tests/types/node/), and no
// tsconfig at all (tests/types/defaults/app.ts beside tao.d.ts in an empty folder: TypeScript's
// defaults, ES5's library and the DOM's).
//
//   node scripts/typecheck.mjs        (make typecheck; needs dist/: make dist)
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "target", "types");
if (!fs.existsSync(path.join(root, "dist", "tao.d.ts"))) {
  console.error("typecheck: dist/tao.d.ts is missing: run `make dist` first");
  process.exit(1);
}

const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
const start = readme.indexOf("\n## Embed");
if (start < 0) throw new Error('typecheck: the README has no "## Embed" section');
const end = readme.indexOf("\n## ", start + 1);
const section = readme.slice(start, end < 0 ? undefined : end);

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
let n = 0;
for (const [, lang, body] of section.matchAll(/```(ts|js|html)\n([\s\S]*?)```/g)) {
  const sources = lang === "html"
    ? Array.from(body.matchAll(/<script type="module">([\s\S]*?)<\/script>/g), (m) => m[1])
    : [body];
  for (const source of sources) {
    n += 1;
    // Each example is a module of its own (top-level await and imports allowed).
    const file = path.join(out, `readme-${n}.${lang === "ts" ? "ts" : "js"}`);
    fs.writeFileSync(file, (lang === "ts" ? "" : "// @ts-check\n") + source + "\nexport {};\n");
  }
}
if (n === 0) throw new Error("typecheck: no examples found in the README's Embed section");
const tsc = path.join(root, "node_modules", ".bin", "tsc");
/** Runs tsc with `args` in `cwd` (its errors printed); whether it passed. */
function passes(args, cwd = root) {
  try {
    execFileSync(tsc, args, { cwd, stdio: "inherit" });
    return true;
  } catch {
    return false;
  }
}
console.log(`typecheck: ${n} README examples, the example site and tests/types, tsc --strict`);
if (!passes(["-p", path.join(root, "tests", "types")])) process.exit(1);
console.log('typecheck: a Node project without the DOM library (tests/types/node: "lib": ["es2022"])');
if (!passes(["-p", path.join(root, "tests", "types", "node")])) process.exit(1);
// An empty folder, so that no tsconfig and no node_modules/@types of ours are found.
console.log("typecheck: no tsconfig, TypeScript's defaults (tests/types/defaults)");
const bare = fs.mkdtempSync(path.join(os.tmpdir(), "tao-types-"));
fs.copyFileSync(path.join(root, "dist", "tao.d.ts"), path.join(bare, "tao.d.ts"));
fs.copyFileSync(path.join(root, "tests", "types", "defaults", "app.ts"), path.join(bare, "app.ts"));
const defaults = passes(["--noEmit", "app.ts"], bare);
fs.rmSync(bare, { recursive: true, force: true });
if (!defaults) process.exit(1);
