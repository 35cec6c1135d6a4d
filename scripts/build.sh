#!/usr/bin/env bash
# Builds the page's wasm and JS glue into pkg/:
#   cargo (wasm32, release) -> wasm-bindgen --target web -> wasm-opt -Oz (npm binaryen 132).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh build
cargo build --release --lib --target wasm32-unknown-unknown
wasm-bindgen --target web --out-dir pkg target/wasm32-unknown-unknown/release/tao_agent.wasm
node_modules/.bin/wasm-opt -Oz pkg/tao_agent_bg.wasm -o pkg/tao_agent_bg.wasm
scripts/size.sh
