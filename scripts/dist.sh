#!/usr/bin/env bash
# Writes dist/: the package a static site copies or installs (npm pack dist/).
#
#   tao.js, tao.d.ts          the entry (the core + <tao-agent> + <tao-trajectory>), its types
#   tao-node.js               the entry in Node (package.json's `node` condition): tao.js, with
#                             init() and fetchOfflineData() reading the package's files from the disk
#   tao_agent.js, _bg.wasm    the core (wasm-bindgen's glue, with the core's own JS bundled in:
#                             values for JS and the loader of the modules below; and the wasm)
#   tao_net.js, _bg.wasm      the providers over HTTP, loaded only when a run first needs one
#   tao_tools.js, _bg.wasm    the built-in tools' code (calculator, MediaWiki, search_docs), loaded
#                             at a tool's first call
#   tao_wllama.js, wllama/    the model in the tab (provider "wllama") and its engine (llama.cpp in
#                             WebAssembly, 2.9 MB gzip), loaded only when a run uses that provider
#   tao-agent.js, .css        the element, and its stylesheet (the demo page's, used in Shadow DOM;
#   styles.js, tao-agent-css.js  the same text as a module, and what adopts it)
#   trajectory.js, i18n.js    what the element draws with (the demo page's own modules: the
#   cards.js, live.js, ...    view and its parts, the runner drive.js, offline-data.js); its
#   i18n-zh.js                words in Chinese, loaded only by an element that speaks Chinese
#   chart.js, picture.js      a tool's chart, drawn in its observation (loaded with the first one)
#   wasm-tool.js, sandbox*.js, tao_sandbox*   sandboxed wasm tools, loaded only when one is made
#   code-tool.js, tools/, samples/   the demo page's own tools (run_js; the example wasm tools
#                             units and wordcount) and run_js's sample file, which the element
#                             makes when a run names one (the scenarios code, stock-chart, units)
#   webmcp.js                 the host page's WebMCP tools, loaded only by <tao-agent webmcp>
#   data/scenarios.json, data/knowledge.json, data/zh.json  the offline data (the scenarios,
#                             the offline search's pages, the Chinese prompts), not in the
#                             wasm: loaded only when a run needs it
#   package.json, README.md, api.md (docs/api.md, its links to the other docs made words)
#
# Everything is copied from pkg/ (scripts/build.sh), www/ and embed/, so the page and the
# package cannot drift apart; the only rewrites are the two paths that differ between the two
# layouts (www/ imports ../pkg/, dist/ is flat), and minifying.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${TAO_SKIP_BUILD:-}" = 1 ] || scripts/build.sh >/dev/null
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
rm -rf dist
mkdir -p dist
cp pkg/tao_agent.js pkg/tao_agent_bg.wasm pkg/tao_net.js pkg/tao_net_bg.wasm pkg/tao_tools.js pkg/tao_tools_bg.wasm pkg/tao_sandbox.js pkg/tao_sandbox_bg.wasm pkg/tao_wllama.js dist/
cp -r pkg/data dist/data
cp -r pkg/tools dist/tools
mkdir -p dist/samples && cp www/samples/stock_prices.csv dist/samples/
cp -r pkg/wllama dist/wllama
# The page's modules the element uses (editor.js loads only at the first Edit, markdown.js when a run begins, download-card.js at a model's first download, studio-cards.js at a run's first question to the reader).
view="trajectory.js cards.js live.js redraw.js step.js drive.js offline-data.js packaged.js"
later="editor.js markdown.js download-card.js studio-cards.js"
cp embed/tao.js embed/tao-node.js embed/tao-agent.js embed/styles.js www/chrome.js www/chrome-model.js $(printf 'www/%s ' $view $later) www/i18n.js www/i18n-zh.js www/chart.js www/picture.js www/code-tool.js www/sandbox.js www/webmcp.js dist/
sed 's#"\.\./pkg/tao_sandbox\.js"#"./tao_sandbox.js"#' www/sandbox-worker.js > dist/sandbox-worker.js
grep -q '"./tao_sandbox.js"' dist/sandbox-worker.js || { echo "dist: sandbox-worker.js path not rewritten" >&2; exit 1; }
sed 's#"\.\./pkg/tools/#"./tools/#' www/wasm-tool.js > dist/wasm-tool.js
grep -q '"./tools/units.wasm"' dist/wasm-tool.js || { echo "dist: wasm-tool.js paths not rewritten" >&2; exit 1; }
cat www/style.css embed/tao-agent.css > dist/tao-agent.css
cat src/bindings/types.d.ts embed/tao.d.ts > dist/tao.d.ts
cp embed/code-tool.d.ts embed/wasm-tool.d.ts dist/
# The page's code and styles, minified as the glue is (scripts/minify.sh; the names kept): what a
# site serves is smaller by a third, and the readable sources stay in www/ and embed/.
scripts/minify.sh --keep-names $(printf 'dist/%s ' tao.js tao-node.js tao-agent.js styles.js chrome.js chrome-model.js $view $later i18n.js i18n-zh.js chart.js \
  picture.js code-tool.js wasm-tool.js sandbox.js sandbox-worker.js tao-agent.css)
# The element's styles as a module too (styles.js adopts them): they come with its code, where a <link> came after its first paint.
node -e 'const fs = require("fs"); fs.writeFileSync("dist/tao-agent-css.js", `export default ${JSON.stringify(fs.readFileSync("dist/tao-agent.css", "utf8"))};\n`)'
cp embed/README.md dist/README.md
# The API's reference beside it, as an embedder reads it: the package has none of the
# repository's other docs, so the pointers to them go ("(models.md)", "See tools.md."), other
# links become their words, and the declarations are named as the package has them.
perl -0pe '
  s|\[embed/README\.md\]\(\.\./embed/README\.md\)|[README.md](README.md)|g;
  s/\s*See \[[a-z-]+\.md\]\([a-z-]+\.md(#[a-z-]*)?\)\.//g;
  s/\s*\(\[[a-z-]+\.md\]\([a-z-]+\.md(#[a-z-]*)?\)\)//g;
  s/\[([^]]+)\]\([a-z-]+\.md(#[a-z-]*)?\)/$1/g;
  s/`dist\/tao\.d\.ts` \(written\s+by `make dist`[^)]*\); `make test` checks them with/`tao.d.ts`, checked with/;
' docs/api.md > dist/api.md
if grep -nE '\.md\b' dist/api.md | grep -v 'README\.md' || grep -nE 'make dist|src/' dist/api.md; then
  echo "dist: api.md still points into the repository (above)" >&2
  exit 1
fi
cat > dist/package.json <<JSON
{
  "name": "tao-agent",
  "version": "$version",
  "description": "A ReAct agent (Thought → Action → Observation) in Rust and WebAssembly, running in the page: an Agent class and a <tao-agent> element.",
  "license": "MIT",
  "type": "module",
  "main": "./tao.js",
  "types": "./tao.d.ts",
  "exports": {
    ".": { "types": "./tao.d.ts", "node": "./tao-node.js", "default": "./tao.js" },
    "./tao-agent.css": "./tao-agent.css",
    "./tao_agent_bg.wasm": "./tao_agent_bg.wasm",
    "./wasm-tool": { "types": "./wasm-tool.d.ts", "default": "./wasm-tool.js" },
    "./code-tool": { "types": "./code-tool.d.ts", "default": "./code-tool.js" },
    "./data/*": "./data/*",
    "./package.json": "./package.json"
  },
  "sideEffects": ["./tao.js"],
  "files": [
    "tao.js", "tao-node.js", "tao.d.ts", "chrome.js", "chrome-model.js", "tao_agent.js", "tao_agent_bg.wasm", "tao_net.js", "tao_net_bg.wasm",
    "tao_tools.js", "tao_tools_bg.wasm", "tao_wllama.js", "wllama/index.js", "wllama/wllama.wasm", "wllama/LICENCE",
    "tao-agent.js", "tao-agent.css", "styles.js", "tao-agent-css.js", "markdown.js",
    "trajectory.js", "cards.js", "live.js", "redraw.js", "studio-cards.js", "editor.js", "download-card.js", "step.js", "drive.js", "offline-data.js", "packaged.js", "i18n.js", "i18n-zh.js", "chart.js", "picture.js", "code-tool.js", "code-tool.d.ts", "wasm-tool.js", "wasm-tool.d.ts", "sandbox.js", "sandbox-worker.js", "webmcp.js",
    "tools/units.wasm", "tools/wordcount.wasm", "samples/stock_prices.csv",
    "tao_sandbox.js", "tao_sandbox_bg.wasm", "data/scenarios.json", "data/knowledge.json", "data/zh.json", "README.md", "api.md"
  ]
}
JSON
# What a page with <tao-agent> loads before Run works (the sandbox's files only come with a wasm tool).
echo "dist/ (tao-agent $version):"
total=0
for f in tao.js tao_agent.js tao_agent_bg.wasm tao-agent.js styles.js chrome.js tao-agent-css.js $view i18n.js; do
  size=$(gzip -9c "dist/$f" | wc -c)
  total=$((total + size))
  printf '  %-22s %8d bytes gzip\n' "$f" "$size"
done
printf '  %-22s %8d bytes gzip (what a page with <tao-agent> loads)\n' "total" "$total"
data=$(( $(gzip -9c dist/data/scenarios.json | wc -c) + $(gzip -9c dist/data/knowledge.json | wc -c) ))
printf '  %-22s %8d bytes gzip (more, for a scenario or the offline search)\n' "data/*.json" "$data"
zh=$(( $(gzip -9c dist/i18n-zh.js | wc -c) + $(gzip -9c dist/data/zh.json | wc -c) ))
printf '  %-22s %8d bytes gzip (more, for an element in Chinese: its words and prompts)\n' "i18n-zh.js, zh.json" "$zh"
