#!/usr/bin/env bash
# Builds the wasm-tool sandbox and the two example tools into pkg/:
#   tools-wasm/{wordcount,units} (wasm32-wasip1, release)  -> pkg/tools/{wordcount,units}.wasm
#   sandbox/ (wasm32-unknown-unknown, release, scripts/cargo-shipped.sh) -> wasm-bindgen --target web -> wasm-opt -Oz
#                                              -> pkg/tao_sandbox.js + pkg/tao_sandbox_bg.wasm
# and prints the sandbox's raw and gzip sizes. Safe to run again: cargo, the copies and the
# wasm-opt step only redo what changed. The native tests in sandbox/tests read pkg/tools, so
# run this first: `scripts/build-sandbox.sh tools` builds the example tools only (`make tools`).
#
# Environment: CARGO_FLAGS is passed to cargo (`CARGO_FLAGS="-j 1"` leaves a core to others on
# a shared machine; by default cargo uses them all: on 2 cores, -j 1 took 92 s to build the
# sandbox's tests where -j 2 took 48).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cargo_flags=${CARGO_FLAGS:-}
say() { printf '\033[1mbuild-sandbox:\033[0m %s\n' "$*"; }

# The targets: wasip1 for the tools (they are ordinary WASI programs), unknown-unknown for the
# sandbox (it talks to JavaScript through wasm-bindgen, not to a WASI host).
for target in wasm32-wasip1 wasm32-unknown-unknown; do
  if ! rustup target list --installed | grep -qx "$target"; then
    say "rustup target add $target"
    rustup target add "$target"
  fi
done

# wasm-bindgen CLI: the exact version of the crate pinned in sandbox/Cargo.toml.
WASM_BINDGEN_VERSION=0.2.130
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
  say "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION"
fi

# wasm-opt from npm binaryen (Debian's is too old: it corrupts wasm-bindgen's externref table).
# In a git worktree without node_modules, borrow the main checkout's, read-only.
if [ ! -x node_modules/.bin/wasm-opt ]; then
  main=$(git worktree list --porcelain | awk '/^worktree /{print $2; exit}')
  if [ -n "$main" ] && [ "$main" != "$root" ] && [ -x "$main/node_modules/.bin/wasm-opt" ]; then
    say "linking node_modules from $main"
    ln -sfn "$main/node_modules" node_modules
  else
    echo "build-sandbox: node_modules/.bin/wasm-opt is missing; run scripts/install.sh build" >&2
    exit 1
  fi
fi

# 1. The example tools.
mkdir -p pkg/tools
for tool in wordcount units; do
  say "tools-wasm/$tool -> pkg/tools/$tool.wasm"
  # shellcheck disable=SC2086  # cargo_flags is a list of flags
  cargo build --quiet --release $cargo_flags --target wasm32-wasip1 \
    --manifest-path "tools-wasm/$tool/Cargo.toml"
  # Copied whole or not at all (a rename): `make test` runs the sandbox's native tests, which
  # read it, while the build (which builds the tools again) runs.
  cp "tools-wasm/$tool/target/wasm32-wasip1/release/$tool.wasm" "pkg/tools/.$tool.wasm.$$"
  mv "pkg/tools/.$tool.wasm.$$" "pkg/tools/$tool.wasm"
done

[ "${1:-}" = tools ] && exit 0

# 2. The sandbox itself.
say "sandbox -> pkg/tao_sandbox_bg.wasm"
# With a standard library of its own, as the core is (scripts/cargo-shipped.sh says why).
# shellcheck disable=SC2086
scripts/cargo-shipped.sh --quiet $cargo_flags --lib --manifest-path sandbox/Cargo.toml \
  --target-dir sandbox/target/shipped
built=sandbox/target/shipped/wasm32-unknown-unknown/release/tao_sandbox.wasm
wasm-bindgen --target web --out-dir pkg --out-name tao_sandbox "$built"
optimise() {
  # Same flags as the core (scripts/build.sh): --converge repeats -Oz while it still shrinks;
  # --low-memory-unused folds small added constants into offsets; the producers and
  # target-features sections are metadata no browser reads.
  node_modules/.bin/wasm-opt -Oz --converge --low-memory-unused --strip-producers --strip-target-features \
    pkg/tao_sandbox_bg.wasm -o pkg/tao_sandbox_bg.wasm
  # Short import and export names, as the core's (scripts/short-names.mjs).
  node scripts/short-names.mjs pkg/tao_sandbox
  # Its glue minified, as the core's is (scripts/build.sh).
  scripts/minify.sh pkg/tao_sandbox.js
}
# wasm-opt --converge takes about a minute on this module: skipped, and the last run's outputs
# restored, when wasm-bindgen's output and the recipe are the same bytes as then (scripts/cache.sh).
# shellcheck source=scripts/cache.sh
. scripts/cache.sh
outputs=(pkg/tao_sandbox_bg.wasm pkg/tao_sandbox.js pkg/tao_sandbox.d.ts pkg/tao_sandbox_bg.wasm.d.ts)
key=$(cache_key "${outputs[@]}" -- "$(declare -f optimise)" "$(sha256sum scripts/short-names.mjs scripts/minify.sh package-lock.json)")
if cache_restore tao_sandbox "$key" "${outputs[@]}"; then
  say "pkg/tao_sandbox_bg.wasm is up to date (wasm-bindgen's output unchanged)"
else
  optimise
  cache_save tao_sandbox "$key" "${outputs[@]}"
fi

# 3. Sizes: what a page pays the first time it registers a wasm tool.
size() { printf '  %-26s %8d bytes raw %8d bytes gzip -9\n' "$1" "$(wc -c <"$1")" "$(gzip -9c "$1" | wc -c)"; }
say "sizes"
size pkg/tao_sandbox_bg.wasm
size pkg/tao_sandbox.js
size pkg/tools/wordcount.wasm
size pkg/tools/units.wasm
