#!/usr/bin/env bash
# Minifies JavaScript and CSS files in place with esbuild (pinned in package.json; a dev tool,
# nothing of it ships): comments (tao's `//!` module docs too: no third-party code is minified
# here), blanks and local names go; every import, export, string and behaviour stays. Then terser
# (pinned too) compresses the JavaScript further, with its safe transforms only (no `unsafe`
# option), in two passes: the demo page's bundle 23.0 -> 22.5 KB gzip, the core's glue 4.7 -> 4.6.
#
#   scripts/minify.sh [--keep-names] FILE...     (.js as an ES module, .css as a stylesheet)
#
# --keep-names keeps each function's and class's `name`, for code whose functions may be read by
# name (the name of a JS model function is what a trajectory records as the model): the files
# the package and the demo page serve one by one. wasm-bindgen's glue needs none, nor does the
# demo page's bundle (scripts/site.sh says why).
# --keep-names is never applied to code-tool.js and picture.js, whichever folder they are in, nor
# terser: the run_js sandbox sends functions of theirs to its worker as source text, which must
# stay self-contained (--keep-names adds calls to a helper of the module's; terser may move code
# between functions), and nothing of theirs needs a name.
set -euo pipefail
cd "$(dirname "$0")/.."
esbuild=node_modules/.bin/esbuild
terser=node_modules/.bin/terser
[ -x "$esbuild" ] && [ -x "$terser" ] || { echo "minify: esbuild or terser is missing; run scripts/install.sh build" >&2; exit 1; }
names=()
if [ "${1:-}" = --keep-names ]; then names=(--keep-names); shift; fi
# Each file's result is kept in target/cache/minify/ under the hash of its bytes, its name (two
# names are treated apart, below), the options and this script's and the tools' versions: a file
# minified before is copied, not minified again (29 files for the demo site: 7 s -> under 1 s).
# `make clean` empties it.
cache=target/cache/minify
mkdir -p "$cache"
recipe=$(sha256sum scripts/minify.sh package-lock.json)
for file in "$@"; do
  keep=("${names[@]}")
  case "$(basename "$file")" in code-tool.js | picture.js) keep=() ;; esac
  key=$({ printf '%s\n' "$(basename "$file")" "${keep[*]}" "$recipe"; cat "$file"; } | sha256sum | cut -d' ' -f1)
  if [ -f "$cache/$key" ]; then
    cp "$cache/$key" "$file"
    continue
  fi
  case "$file" in
    *.js)
      "$esbuild" "$file" --minify "${keep[@]}" --legal-comments=none --format=esm --log-level=warning --allow-overwrite --outfile="$file"
      case "$(basename "$file")" in
        code-tool.js | picture.js) ;;
        *) "$terser" "$file" --module --compress passes=2 --mangle --comments false ${keep:+--keep-fnames --keep-classnames} --output "$file" ;;
      esac
      ;;
    *.css) "$esbuild" "$file" --minify --legal-comments=none --log-level=warning --allow-overwrite --outfile="$file" ;;
    *) echo "minify: $file is neither .js nor .css" >&2; exit 1 ;;
  esac
  cp "$file" "$cache/$key.tmp" && mv "$cache/$key.tmp" "$cache/$key"
done
