// Bundles the demo page's modules for target/site (scripts/site.sh): www/main.js with everything
// it imports, as one file, and each module the page imports on demand (its `import("./…")`) as a
// file of its own, which imports what it shares with the page from main.js. Prints the modules
// now inside the bundle, one per line (the site drops their own files).
//
//   node scripts/bundle-page.mjs <www> <outdir>
//
// Rollup (@rollup/wasm-node, pinned in package.json: a dev tool, nothing of it ships) and not
// esbuild's splitting: esbuild puts the code that the page and an on-demand module share into
// chunks of their own, so the first load fetched main.js and five chunks, which compressed 3.4 KB
// worse than one file (small files are compressed one by one). Rollup sees that a module imported
// on demand needs only what main.js has already loaded, and imports it from there.
// Left out, as files of their own (external): code-tool.js and picture.js (scripts/minify.sh says
// why), and pkg/.
import path from "node:path";
import { rollup } from "@rollup/wasm-node";

const [www, outdir] = process.argv.slice(2);
if (!www || !outdir) throw new Error("usage: node scripts/bundle-page.mjs <www> <outdir>");
const root = path.resolve(www);
const external = (id) => /(^|\/)(code-tool|picture)\.js$/.test(id) || /(^|\/)pkg\//.test(id);
const bundle = await rollup({
  input: path.join(root, "main.js"),
  external,
  // main.js may export what the on-demand modules take from it (nothing imports the page).
  preserveEntrySignatures: "allow-extension",
  onwarn: (warning) => {
    throw new Error(`bundle-page: ${warning.message}`);
  },
});
const { output } = await bundle.write({ dir: outdir, format: "es", entryFileNames: "[name].js", chunkFileNames: "[name].js" });
await bundle.close();
for (const chunk of output) {
  for (const id of Object.keys(chunk.modules ?? {})) console.log(path.relative(root, id));
}
