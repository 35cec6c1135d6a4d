// Gives a wasm-bindgen module's imports and exports short names, in the wasm and in its glue
// alike, so neither carries wasm-bindgen's long ones: an import is named after its Rust item and a
// 16-digit hash (`__wbg_static_accessor_GLOBAL_THIS_003ee833af9699fc`), a closure's export after
// its whole type (`wasm_bindgen_68652abdf3f18eb2___convert__closures_____invoke___…`), and the
// wasm names each import's module (`./tao_agent_bg.js`, the snippets' paths) again for every
// import. The glue refers to each name in one way only (an import as a key of the imports
// object, an export as `wasm.name`, a module as a key of the object that gathers them), which this
// script rewrites, and then checks that the glue names nothing the wasm no longer has.
// A hand-written pass, not binaryen's `--minify-imports-and-exports`: that one renames in the
// wasm only (and none of wasm-bindgen's imports), leaving the glue to match.
//
//   node scripts/short-names.mjs pkg/tao_agent     (pkg/tao_agent_bg.wasm, .js, .d.ts, _bg.wasm.d.ts)
//
// Run it on wasm-bindgen's readable glue, before scripts/minify.sh. Nothing outside the glue sees
// these names: a page calls the glue's functions and classes, whose names do not change.

import fs from "node:fs";

const [base] = process.argv.slice(2);
if (!base) {
  console.error("usage: node scripts/short-names.mjs pkg/NAME");
  process.exit(2);
}
const fail = (why) => {
  console.error(`short-names: ${base}: ${why}`);
  process.exit(1);
};

// --- The wasm: its import and export sections, read and written again with the new names. ---

const wasm = fs.readFileSync(`${base}_bg.wasm`);
if (wasm.readUInt32LE(0) !== 0x6d736100) fail("not a wasm module");

/** A reader over `bytes` from `at`. */
function reader(bytes, at) {
  return {
    at,
    byte() {
      return bytes[this.at++];
    },
    u32() {
      let result = 0;
      for (let shift = 0; ; shift += 7) {
        const b = bytes[this.at++];
        result += (b & 0x7f) * 2 ** shift;
        if (!(b & 0x80)) return result;
      }
    },
    name() {
      const length = this.u32();
      const text = bytes.subarray(this.at, this.at + length).toString("utf8");
      this.at += length;
      return text;
    },
    limits() {
      const flags = this.byte();
      this.u32();
      if (flags & 1) this.u32();
    },
  };
}

const leb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
};
const name = (text) => {
  const bytes = Buffer.from(text, "utf8");
  return Buffer.concat([leb(bytes.length), bytes]);
};

/** Short names, in order: a … z, A … Z, then two letters. */
function* shortNames() {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (const a of letters) yield a;
  for (const a of letters) for (const b of letters) yield a + b;
}

const modules = new Map(); // old module name -> new
const imports = new Map(); // old field name (of the glue's own module) -> new
const exports = new Map(); // old export name -> new
let glueModule = null; // the module the glue's imports object provides itself

const sections = [];
for (const r = reader(wasm, 8); r.at < wasm.length; ) {
  const start = r.at;
  const id = r.byte();
  const size = r.u32();
  const body = r.at;
  const end = body + size;
  if (id === 2) {
    const s = reader(wasm, body);
    const moduleNames = shortNames();
    const fieldNames = shortNames();
    const parts = [];
    const count = s.u32();
    for (let i = 0; i < count; i++) {
      const module = s.name();
      const field = s.name();
      const descStart = s.at;
      const kind = s.byte();
      if (kind === 0) s.u32();
      else if (kind === 1) (s.byte(), s.limits());
      else if (kind === 2) s.limits();
      else if (kind === 3) (s.byte(), s.byte());
      else if (kind === 4) (s.byte(), s.u32());
      else fail(`an import of an unknown kind (${kind})`);
      if (!modules.has(module)) modules.set(module, moduleNames.next().value);
      // wasm-bindgen's own imports come from the module named after the wasm file; the snippets'
      // fields are the names they export, which must stay.
      let newField = field;
      if (module.endsWith("_bg.js")) {
        if (glueModule !== null && glueModule !== module) fail("two modules end in _bg.js");
        glueModule = module;
        if (!imports.has(field)) imports.set(field, fieldNames.next().value);
        newField = imports.get(field);
      }
      parts.push(name(modules.get(module)), name(newField), wasm.subarray(descStart, s.at));
    }
    if (s.at !== end) fail("the import section did not read to its end");
    sections.push(section(2, Buffer.concat([leb(count), ...parts])));
  } else if (id === 7) {
    const s = reader(wasm, body);
    const exportNames = shortNames();
    const parts = [];
    const count = s.u32();
    for (let i = 0; i < count; i++) {
      const old = s.name();
      const descStart = s.at;
      s.byte();
      s.u32();
      exports.set(old, exportNames.next().value);
      parts.push(name(exports.get(old)), wasm.subarray(descStart, s.at));
    }
    if (s.at !== end) fail("the export section did not read to its end");
    sections.push(section(7, Buffer.concat([leb(count), ...parts])));
  } else {
    sections.push(wasm.subarray(start, end));
  }
  r.at = end;
}
function section(id, content) {
  return Buffer.concat([Buffer.from([id]), leb(content.length), content]);
}

// --- The glue: the same names, where it uses them. ---

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
let glue = fs.readFileSync(`${base}.js`, "utf8");
const count = (re) => (glue.match(re) || []).length;

for (const [old, short] of imports) {
  // An import is a key of the imports object: `name: function(…)` (or `name: value` for the
  // few that are not functions).
  const key = new RegExp(`(?<=^\\s*)${escape(old)}(?=:)`, "gm");
  if (count(key) !== 1) fail(`the import ${old} is not a key of the imports object once`);
  glue = glue.replace(key, short);
}
for (const [old, short] of exports) {
  const use = new RegExp(`\\bwasm\\.${escape(old)}\\b`, "g");
  glue = glue.replace(use, `wasm.${short}`);
}
for (const [old, short] of modules) {
  const key = new RegExp(`(?<=^\\s*)"${escape(old)}"(?=:)`, "gm");
  if (count(key) < 1) fail(`the module ${old} is not a key of the imports object`);
  glue = glue.replace(key, `"${short}"`);
}
// What the glue now asks of the wasm must be what the wasm has.
const shortExports = new Set(exports.values());
for (const [, used] of glue.matchAll(/\bwasm\.([A-Za-z_$][\w$]*)/g)) {
  if (!shortExports.has(used)) fail(`the glue uses wasm.${used}, which the wasm does not export`);
}
for (const old of imports.keys()) {
  if (glue.includes(old)) fail(`the glue still names the import ${old}`);
}

// --- The declarations of the raw exports (`InitOutput`, the _bg.wasm.d.ts), to match. ---

function declarations(file, pattern) {
  if (!fs.existsSync(file)) return;
  let text = fs.readFileSync(file, "utf8");
  text = text.replace(pattern, (whole, before, old, after) => (exports.has(old) ? before + exports.get(old) + after : whole));
  fs.writeFileSync(file, text);
}

fs.writeFileSync(`${base}_bg.wasm`, Buffer.concat([wasm.subarray(0, 8), ...sections]));
fs.writeFileSync(`${base}.js`, glue);
declarations(`${base}.d.ts`, /(^\s*readonly )([\w$]+)(:)/gm);
declarations(`${base}_bg.wasm.d.ts`, /(^export const )([\w$]+)(:)/gm);
