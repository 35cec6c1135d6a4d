#!/usr/bin/env bash
# Builds the page's wasm and JS glue into pkg/:
#   cargo (wasm32, release) -> wasm-bindgen --target web -> wasm-opt -Oz (npm binaryen 132),
# each module's steps skipped when what they read is the same as last time (below, and
# scripts/cache.sh): with no Rust change, a rebuild takes a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh build
# Without the `bundled-data` feature: the scenarios and the offline search's pages are not
# compiled in, but written beside the wasm as two files that the page fetches and installs
# (`loadOfflineData`), so a page with its own model and tools never downloads them.
# Without the `providers` and `builtin-tools` features either: the HTTP providers and the
# built-in tools' code are modules of their own, built from the same crate with the
# `net-module` and `tools-module` features (pkg/tao_net*, pkg/tao_tools*), which the core
# imports the first time a run needs them.
# The three are built by scripts/cargo-shipped.sh, with a standard library of their own (it says
# why), in a target directory of their own.
shipped() { scripts/cargo-shipped.sh --lib --no-default-features --target-dir target/shipped "$@"; }
wasm=target/shipped/wasm32-unknown-unknown/release/tao_agent.wasm
# shellcheck source=scripts/cache.sh
. scripts/cache.sh

# What makes a module of wasm-bindgen's output the one a page loads: the slow part of the build
# (wasm-opt takes 10 to 30 s a module), so it runs only when that output changed (below).
optimise() {
  local module=$1
  # --converge repeats -Oz while it still shrinks the module; the producers and target-features
  # sections are metadata no browser reads. (Measured: -0.5 KB gzip over plain -Oz.)
  # --low-memory-unused lets it fold an added constant (under 1 KiB) into a load's or store's
  # offset, which differs from the add only where the add would wrap past 2^32 into the lowest
  # KiB: Rust never computes such an address (pointer arithmetic may not overflow). -0.57 KB gzip.
  # --duplicate-function-elimination --merge-similar-functions first: functions that differ only
  # in constants become one that takes them as parameters (-0.4 KB gzip; a turn no slower: 0.992
  # and 0.96 in the two orders of bench/ab.mjs, 300 pairs).
  # --one-caller-inline-max-function-size 30: a function with one caller is inlined into it only
  # when small (by default wasm-opt inlines every such function, whatever its size). The wasm
  # comes out 1.3% larger raw but 2.8% smaller gzip (likely because bodies kept apart, their locals
  # numbered from 0, repeat each other's bytes more than when merged into their callers).
  # Core -3,258 B gzip, providers -1,383, tools -1,752. A turn's cost, new/old in bench/ab.mjs
  # (1,000 pairs, both orders): 1.010 and 0.997, 1.013 and 1.007; 50 steps with a listener, 1.018
  # and 1.008: under 1% slower if at all, within the bench's noise (a tenth of a µs a turn).
  node_modules/.bin/wasm-opt --duplicate-function-elimination --merge-similar-functions \
    -Oz --converge --one-caller-inline-max-function-size 30 \
    --low-memory-unused --strip-producers --strip-target-features \
    "pkg/${module}_bg.wasm" -o "pkg/${module}_bg.wasm"
  # wasm-bindgen's long import and export names (hashes, closures' whole types) made short, in
  # the wasm and its glue alike: core 3.3 KB gzip less, nothing else changes (the script says how).
  node scripts/short-names.mjs "pkg/$module"
  if [ "$module" != tao_agent ]; then
    # The glue minified: wasm-bindgen writes readable JS with each export's doc comment in it,
    # which a page downloads for nothing (the declarations, tao_*.d.ts, keep the docs). esbuild
    # (pinned in package.json, a dev tool only) drops comments and blanks and shortens local
    # names, nothing else: core glue 7.9 -> 4.4 KB gzip, values.js 1.6 -> 0.8.
    scripts/minify.sh "pkg/$module.js"
    return
  fi
  # The core's glue with its snippets (src/bindings/values.js, the modules' loader) bundled in,
  # so a page fetches one file instead of three, which compresses better together: -0.4 KB gzip.
  # Only the core's glue imports snippets. The modules the loader imports on demand stay files of
  # their own (external), their `import("./tao_net.js")` as written, which is right from here
  # (src/bindings/modules.rs says why the names are literals; the check below that they still are).
  # (wasm-bindgen's imports object names the one snippet module twice: esbuild's warning is muted.)
  node_modules/.bin/esbuild pkg/tao_agent.js --bundle --format=esm --minify --legal-comments=none \
    --external:./tao_net.js --external:./tao_tools.js --external:./tao_wllama.js \
    --log-level=warning --log-override:duplicate-object-key=silent --allow-overwrite --outfile=pkg/tao_agent.js
  # Then terser's pass, as scripts/minify.sh gives every file a page loads (it says why; esbuild
  # has minified the glue already, and would warn again of the key above).
  node_modules/.bin/terser pkg/tao_agent.js --module --compress passes=2 --mangle --comments false --output pkg/tao_agent.js
  # What a bundler must find in the result (Vite, webpack and esbuild follow these literal forms
  # only): each module's static import and its wasm's `new URL`, and no `node:` import.
  local m
  for m in tao_net tao_tools; do
    grep -q "import(\"./$m.js\")" pkg/tao_agent.js && grep -Eq "new URL\(\"./${m}_bg.wasm\", ?import.meta.url\)" pkg/tao_agent.js \
      || { echo "build: pkg/tao_agent.js lost the literal import of $m (see src/bindings/modules.rs)" >&2; return 1; }
  done
  grep -q 'import("./tao_wllama.js")' pkg/tao_agent.js \
    || { echo "build: pkg/tao_agent.js lost the literal import of tao_wllama (see src/bindings/modules.rs)" >&2; return 1; }
  ! grep -q '"node:' pkg/tao_agent.js || { echo "build: pkg/tao_agent.js names a node: module" >&2; return 1; }
}

# Each module: cargo, wasm-bindgen (a second or two), then `optimise`, or its outputs of the last
# run when wasm-bindgen's output (and the snippets it copied) and the recipe (optimise's text,
# the scripts and tools it runs) are the same bytes as then.
# And before all that: cargo builds the three modules from one crate into one place, so each
# build compiles the crate again after the other's features (6 to 10 s with LTO). So the module
# is not built at all when none of what cargo read for it last time (the files its dep-info
# lists, kept in target/cache/) nor the manifest, the lock file, the flags, the toolchain or the
# recipe changed: a rebuild with no Rust change takes seconds.
recipe="$(declare -f optimise)
$(sha256sum scripts/short-names.mjs scripts/minify.sh scripts/cargo-shipped.sh package-lock.json)"
toolchain="$(rustc -vV)
$(wasm-bindgen --version)"
rust_key() {
  local deps=$cache_root/$1.deps
  shift
  [ -f "$deps" ] || { echo none; return; }
  # shellcheck disable=SC2046  # one word per file (dep-info separates them with spaces)
  cache_key $(sed 's/^[^:]*: *//' "$deps") Cargo.toml Cargo.lock -- "$*" "$toolchain" "$recipe"
}
for module in tao_net tao_tools tao_agent; do
  features=()
  [ "$module" = tao_agent ] || features=(--features "${module#tao_}-module")
  outputs=("pkg/${module}_bg.wasm" "pkg/$module.js" "pkg/$module.d.ts" "pkg/${module}_bg.wasm.d.ts")
  if cache_restore "$module.rust" "$(rust_key "$module" "${features[@]}")" "${outputs[@]}"; then
    echo "build: pkg/${module}_bg.wasm is up to date (no Rust change)"
    continue
  fi
  rm -rf pkg/snippets
  shipped "${features[@]}"
  wasm-bindgen --target web --out-dir pkg --out-name "$module" "$wasm"
  inputs=("${outputs[@]}")
  [ -d pkg/snippets ] && inputs+=(pkg/snippets)
  key=$(cache_key "${inputs[@]}" -- "$recipe")
  if cache_restore "$module" "$key" "${outputs[@]}"; then
    echo "build: pkg/${module}_bg.wasm is up to date (wasm-bindgen's output unchanged)"
  else
    optimise "$module"
    cache_save "$module" "$key" "${outputs[@]}"
  fi
  cp "${wasm%.wasm}.d" "$cache_root/$module.deps"
  cache_save "$module.rust" "$(rust_key "$module" "${features[@]}")" "${outputs[@]}"
done
rm -rf pkg/snippets
# The model in the tab (provider "wllama"): its module, minified, and beside it the engine it
# imports, wllama (llama.cpp in WebAssembly, MIT, pinned in package.json): its minified JS, its
# wasm (2.9 MB gzip) and its licence. The core imports the module only when a run uses the
# provider, so no other page loads any of it.
rm -rf pkg/wllama
mkdir -p pkg/wllama
cp src/llm/wllama.js pkg/tao_wllama.js
scripts/minify.sh pkg/tao_wllama.js
engine=node_modules/@wllama/wllama
cp "$engine/esm/index.min.js" pkg/wllama/index.js
cp "$engine/esm/wasm/wllama.wasm" "$engine/LICENCE" pkg/wllama/
# The wasm-tool sandbox and the example tools: a separate module, fetched by the page only
# when the first wasm tool is registered (so the core above does not carry wasmi).
scripts/build-sandbox.sh
# The offline data: every scenario as one JSON array, in the menu order of src/scenarios.rs's
# FILES (read from there, so the two cannot disagree), the knowledge pages, and the Chinese
# prompts (data/zh.json: a page that runs an agent in Chinese loads them first); all minified.
# pkg/data is written afresh, so a file this script no longer writes does not linger in it.
rm -rf pkg/data
mkdir -p pkg/data
node -e 'const fs = require("fs"); const [out, ...files] = process.argv.slice(1);
  const read = (f) => JSON.parse(fs.readFileSync(f, "utf8"));
  fs.writeFileSync(out + "/scenarios.json", JSON.stringify(files.map(read)));
  fs.writeFileSync(out + "/knowledge.json", JSON.stringify(read("data/knowledge.json")));
  fs.writeFileSync(out + "/zh.json", JSON.stringify(read("data/zh.json")));' \
  pkg/data $(sed -n '/^const FILES/,/^];/p' src/scenarios.rs | grep -o 'data/scenarios/[a-z0-9-]*\.json')
# The scenarios' list, as the core's `scenarios(lang)` gives it (names, titles, tasks, tools),
# one file per language (scenario-list.en.json 1.8 KB gzip, scenario-list.zh.json 2.2 KB), for a
# page that shows the menu before it plays a scenario: the demo page fetches its language's list
# at its start, the other language's when it first needs it, and scenarios.json (replies, rules,
# pages) at its first run.
node --input-type=module -e 'import fs from "node:fs";
  import { initSync, loadOfflineData, scenarios } from "./pkg/tao_agent.js";
  initSync({ module: fs.readFileSync("pkg/tao_agent_bg.wasm") });
  loadOfflineData({ scenarios: fs.readFileSync("pkg/data/scenarios.json", "utf8") });
  for (const lang of ["en", "zh"]) fs.writeFileSync(`pkg/data/scenario-list.${lang}.json`, JSON.stringify(scenarios(lang)));'
scripts/size.sh
