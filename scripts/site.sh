#!/usr/bin/env bash
# Writes target/site/: the demo page as a static host serves it, and as `make demo` serves it:
# index.html, www/ and pkg/ (scripts/build.sh), with the page's own code and styles minified
# (scripts/minify.sh --keep-names: about a third less to download; the readable sources stay in
# www/). Deploying the demo is copying this folder.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/tao_agent_bg.wasm ] || { echo "site: pkg/ is missing; run make build first" >&2; exit 1; }
site=target/site
rm -rf "$site"
mkdir -p "$site"
cp -r index.html www pkg "$site"/
# The declarations are for editors and the package (dist/), not for the page.
find "$site/pkg" -name '*.d.ts' -delete
# shellcheck disable=SC2046  # one argument per file (no spaces in these names)
scripts/minify.sh --keep-names $(find "$site/www" -name '*.js' -o -name '*.css')
