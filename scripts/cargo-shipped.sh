#!/usr/bin/env bash
# `cargo build --release --target wasm32-unknown-unknown "$@"` for the wasm that pages load: the
# core and its two modules (scripts/build.sh) and the wasm-tool sandbox (scripts/build-sandbox.sh).
#
# They are built with a standard library of their own (-Zbuild-std, from the rust-src component,
# added below when missing: rustup fetches it as it fetches the wasm target), compiled with the
# rest of the module:
# - with -Cpanic=immediate-abort: a panic, which is a bug (no input causes one: tests/,
#   make fuzz, the sandbox's garbage and hostile tests), traps at once, as it already ended in a
#   trap, but without its message formatted on the way, so none of std's or our panic-message
#   code and strings is linked (src/bindings/mod.rs's hook that printed them is compiled out).
#   Std rebuilt with plain panic=abort saves nothing: the saving is all the panic reports;
# - -Zlocation-detail=none: no file names for wasm-bindgen's own throw messages (core -541 B),
#   and std's optimize_for_size feature, its smaller algorithms (-507 B);
# - core and alloc at opt-level 3, as the prebuilt std is: at our opt-level "z" a turn was 18%
#   slower (string and slice code, allocation); at 3 it is as fast as with the prebuilt std or
#   faster (bench/ab.mjs, both orders, 1,000 pairs: 0.95-0.98 at 10 steps, 0.94 at 50), for
#   +171 B. All of std at 3 was 3% faster still, 0.8 KB larger. (std's allocator, dlmalloc, was
#   at 3 too; the wasm now uses rlsf's (src/lib.rs), as fast at "z" as at 3.)
# Measured (gzip): the core's wasm 133,707 -> 123,988 B, the providers' and tools' modules -9.1
# and -9.8 KB, the sandbox 287,500 -> 240,405 B with wasmi as fast as before.
# These flags are unstable: RUSTC_BOOTSTRAP=1 lets the machine's stable toolchain take them, and
# a toolchain that drops one fails the build loudly. `cargo test`, clippy and the browser tests
# build as usual; give this build a target directory of its own (--target-dir) so that neither
# rebuilds the other's artifacts.
set -euo pipefail
if [ ! -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library" ]; then
  printf '\033[1mcargo-shipped:\033[0m %s\n' "rustup component add rust-src"
  rustup component add rust-src
fi
export RUSTC_BOOTSTRAP=1
export RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none"
exec cargo build --release --target wasm32-unknown-unknown \
  -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size \
  --config profile.release.package.core.opt-level=3 \
  --config profile.release.package.alloc.opt-level=3 \
  "$@"
