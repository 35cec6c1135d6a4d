#!/usr/bin/env bash
# Runs tests/browser.rs as wasm in headless Chromium (wasm-bindgen-test-runner drives
# chromedriver; webdriver.json passes Chromium's flags for running as root, headless).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh test
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
export WASM_BINDGEN_TEST_TIMEOUT=60
cargo test --target wasm32-unknown-unknown --test browser
