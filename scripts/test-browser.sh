#!/usr/bin/env bash
# Runs tests/browser.rs as wasm in headless Chromium (wasm-bindgen-test-runner drives
# chromedriver; webdriver.json passes Chromium's flags for running as root, headless), with the
# mock LLM server running for the fetch tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh test
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
export WASM_BINDGEN_TEST_TIMEOUT=60
# The mock OpenAI/Anthropic server the fetch tests talk to (tests/mock/llm.mjs), on a free port.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
node tests/mock/llm.mjs --port "$port" --delay 2 >/dev/null &
mock=$!
trap 'kill $mock 2>/dev/null' EXIT
export TAO_MOCK_URL="http://127.0.0.1:$port"
cargo test --target wasm32-unknown-unknown --test browser
