#!/usr/bin/env bash
# Writes target/site/: the demo page as a static host serves it, and as `make demo` serves it:
# index.html, www/ and pkg/ (scripts/build.sh), with the page's own code and styles minified
# (scripts/minify.sh --keep-names: about a third less to download; the readable sources stay in
# www/) and its modules bundled (below). Deploying the demo is copying this folder.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/tao_agent_bg.wasm ] || { echo "site: pkg/ is missing; run make build first" >&2; exit 1; }
site=target/site
rm -rf "$site"
mkdir -p "$site"
cp -r index.html www pkg "$site"/
# The declarations are for editors and the package (dist/), not for the page.
find "$site/pkg" -name '*.d.ts' -delete
# The page's modules, bundled by esbuild: main.js with everything it imports, and each module
# the page imports on demand (found by its `import("./…")`) under its own name, their shared code
# in chunks. The first load fetches 6 scripts instead of 23, and 5 KB less gzip (small files
# compressed one by one compress worse). Left out, as files of their own: app.js (the page's
# state: one instance, which the tests import too), code-tool.js and picture.js (see minify.sh).
lazy=$(grep -oh 'import("\./[a-z0-9-]*\.js")' www/*.js | grep -o '[a-z0-9-]*\.js' | sort -u | grep -vx code-tool.js)
bundle=$(mktemp -d)
trap 'rm -rf "$bundle"' EXIT
# shellcheck disable=SC2046  # one argument per module
node_modules/.bin/esbuild www/main.js $(printf 'www/%s ' $lazy) --bundle --splitting --format=esm \
  --minify --keep-names --legal-comments=none --log-level=warning --outdir="$bundle/www" \
  --entry-names='[name]' --chunk-names='chunk-[hash]' --metafile="$bundle/meta.json" \
  --external:./app.js --external:./code-tool.js --external:./picture.js --external:'../pkg/*'
# The modules now inside the bundle go; the rest are minified one by one, and the bundle's
# files (minified already) take the place of those that went.
node -e 'const meta = require(process.argv[1]);
  for (const input of Object.keys(meta.inputs)) require("fs").rmSync(process.argv[2] + "/" + input);' \
  "$bundle/meta.json" "$site"
# shellcheck disable=SC2046  # one argument per file (no spaces in these names)
scripts/minify.sh --keep-names $(find "$site/www" -name '*.js' -o -name '*.css')
cp "$bundle"/www/*.js "$site/www/"
