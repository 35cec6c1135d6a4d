#!/usr/bin/env bash
# Writes target/site/: the demo page as a static host serves it, and as `make demo` serves it:
# index.html, www/ and pkg/ (scripts/build.sh), with the page's own code and styles minified
# (scripts/minify.sh: about a third less to download; the readable sources stay in www/) and its
# modules bundled (below). Deploying the demo is copying this folder.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/tao_agent_bg.wasm ] || { echo "site: pkg/ is missing; run make build first" >&2; exit 1; }
site=target/site
rm -rf "$site"
mkdir -p "$site"
cp -r index.html www pkg "$site"/
# The page's markup without its indentation (-0.2 KB gzip): the browser collapses white space in
# text anyway, and no <pre> or <textarea> in it has text of its own.
sed -i 's/^[[:space:]]*//' "$site/index.html"
# The declarations are for editors and the package (dist/), not for the page.
find "$site/pkg" -name '*.d.ts' -delete
# The page's modules, bundled (scripts/bundle-page.mjs, which says how): main.js with everything
# it imports as one file, and each module the page imports on demand under its own name. The
# first load fetches one script instead of 23 (main.js): 5 KB less gzip than the files
# one by one when esbuild bundled them, and 3.4 KB less again now that the code the page shares
# with its on-demand modules is in main.js rather than in five chunks of its own (small files
# compressed one by one compress worse), and 0.4 KB less again with the page's state (app.js) in it.
bundle=$(mktemp -d)
trap 'rm -rf "$bundle"' EXIT
node scripts/bundle-page.mjs www "$bundle/www" >"$bundle/inputs"
# The modules now inside the bundle go; the rest are minified one by one, names kept (see
# minify.sh), and the bundle's files take the place of those that went, minified without their
# names: nothing in them reads a function's name (the page's one JS model function, in app.js,
# names itself "human"), and the names cost 1.2 KB gzip of the first load.
while read -r input; do rm "$site/www/$input"; done <"$bundle/inputs"
# shellcheck disable=SC2046  # one argument per file (no spaces in these names)
scripts/minify.sh --keep-names $(find "$site/www" -name '*.js' -o -name '*.css')
scripts/minify.sh "$bundle"/www/*.js
cp "$bundle"/www/*.js "$site/www/"
