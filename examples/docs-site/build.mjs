// Builds the example documentation site: the pages, the package, and the search index.
//
//   node examples/docs-site/build.mjs <out-dir> [<dist-dir>]
//
// 1. writes each page of pages/ into <out-dir>, put into layout.html (the shell every page shares:
//    header, navigation with the page's own link marked, footer), and copies src/ (style.css,
//    site.js) beside them;
// 2. copies the package (<dist-dir>, by default the repository's dist/, made by `make dist`)
//    into <out-dir>/tao/, where the pages' import map points;
// 3. writes <out-dir>/docs.json, what the `search_docs` tool searches: one {title, url, text}
//    per page, the title from <title>, the text from <main> with the markup taken out, the url
//    the page's address relative to the site. A page with <meta name="robots" content="noindex">
//    (ask.html: a form, not documentation) is left out, as a search engine would leave it out.
//
// Node 20 and `node:` modules only. The HTML is read with a few regular expressions rather than
// a parser: that is enough because these pages are ours and written plainly (one <main> each,
// no comments or scripts inside it). A site with pages from elsewhere would want a real parser.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.join(HERE, "src");
const PAGES = path.join(HERE, "pages");
const LAYOUT = path.join(HERE, "layout.html");
const REPO = path.resolve(HERE, "../..");

/** The files of the package the pages need; the check that `dist` really is one. */
const NEEDED = ["tao.js", "tao_agent.js", "tao_agent_bg.wasm", "tao-agent.js", "tao-agent.css"];

/** Tags that end a block of text: they become a space, so "<li>a</li><li>b</li>" reads "a b". */
const BLOCK = new Set([
  "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption",
  "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav",
  "ol", "p", "pre", "section", "table", "td", "th", "tr", "ul",
]);

/** The character references the pages use. Any other one stops the build (see `decode`). */
const ENTITIES = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " ", "&amp;": "&" };

function main() {
  const [outArg, distArg] = process.argv.slice(2);
  if (!outArg) fail("usage: node examples/docs-site/build.mjs <out-dir> [<dist-dir>]");
  const out = path.resolve(outArg);
  const dist = path.resolve(distArg ?? path.join(REPO, "dist"));
  if (!fs.existsSync(dist)) fail(`the package folder ${dist} does not exist: run make dist first`);
  const missing = NEEDED.filter((f) => !fs.existsSync(path.join(dist, f)));
  if (missing.length) {
    fail(`${dist} is not a built package (missing ${missing.join(", ")}): run make dist first`);
  }

  // 1 and 2: the site's own files, then the package beside them.
  fs.mkdirSync(out, { recursive: true });
  fs.cpSync(SRC, out, { recursive: true });
  const layout = fs.readFileSync(LAYOUT, "utf8");
  const pages = fs.readdirSync(PAGES).filter((f) => f.endsWith(".html")).sort();
  for (const file of pages) {
    const page = fs.readFileSync(path.join(PAGES, file), "utf8");
    fs.writeFileSync(path.join(out, file), render(layout, page, file));
  }
  fs.rmSync(path.join(out, "tao"), { recursive: true, force: true }); // no stale files from an older dist
  fs.cpSync(dist, path.join(out, "tao"), { recursive: true });

  // 3: the index, one entry per documentation page.
  const docs = [];
  const skipped = [];
  for (const file of pages) {
    const html = fs.readFileSync(path.join(PAGES, file), "utf8"); // the page itself, not the shell
    const doc = readPage(html, file);
    if (doc) docs.push(doc);
    else skipped.push(file);
  }
  const json = JSON.stringify(docs, null, 1) + "\n";
  fs.writeFileSync(path.join(out, "docs.json"), json);

  console.log(`wrote ${out}/`);
  console.log(`  ${pages.length} pages from ${path.relative(REPO, PAGES)}/ in layout.html, ${fs.readdirSync(SRC).length} files from ${path.relative(REPO, SRC)}/`);
  console.log(`  tao/: ${fs.readdirSync(dist).length} files from ${dist}`);
  console.log(`  docs.json: ${docs.length} pages, ${json.length} bytes`);
  for (const d of docs) console.log(`    ${d.url.padEnd(22)} ${d.title} (${d.text.length} characters)`);
  if (skipped.length) console.log(`  not indexed (noindex): ${skipped.join(", ")}`);
}

/**
 * A page of pages/ in the layout. A page is its head (what comes before <main>: the <title>, and
 * anything else it needs there), its <main>, and its scripts (what comes after </main>).
 */
function render(layout, page, file) {
  const at = page.indexOf("<main");
  const end = page.indexOf("</main>");
  if (at < 0 || end < 0) fail(`pages/${file}: no <main> … </main>`);
  const ownLink = `<a href="${file}"`;
  if (!layout.includes(ownLink)) fail(`pages/${file} is not in layout.html's navigation`);
  // Put in as written, not re-indented: whitespace inside <pre> is content.
  return layout
    .replace(ownLink, `${ownLink} aria-current="page"`)
    .replace("{{head}}", () => page.slice(0, at).trim())
    .replace("{{main}}", () => page.slice(at, end + "</main>".length))
    .replace("{{scripts}}", () => page.slice(end + "</main>".length).trim());
}

/**
 * A page's entry in docs.json, or null for a page marked noindex. `file` is also the page's
 * url: the pages sit side by side, so a relative address is the file name.
 */
function readPage(html, file) {
  if (/<meta\s+name="robots"\s+content="[^"]*noindex/i.test(html)) return null;
  const title = html.match(/<title>([\s\S]*?)<\/title>/i);
  const main = html.match(/<main\b[^>]*>([\s\S]*?)<\/main>/i);
  if (!title) fail(`${file}: no <title>`);
  if (!main) fail(`${file}: no <main> (only what is in <main> is indexed)`);
  return { title: toText(title[1], file), url: file, text: toText(main[1], file) };
}

/** The text of some HTML: blocks become spaces, inline tags vanish, whitespace collapses. */
function toText(html, file) {
  const text = html.replace(/<\/?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g, (_, name) =>
    BLOCK.has(name.toLowerCase()) ? " " : "",
  );
  return decode(text, file).replace(/\s+/g, " ").trim();
}

/**
 * Decodes the character references in ENTITIES, in one pass (so "&amp;lt;" becomes "&lt;",
 * not "<"). An unknown one fails the build rather than reaching the index as "&hellip;".
 */
function decode(text, file) {
  return text.replace(/&#?[a-zA-Z0-9]+;/g, (entity) => {
    if (!(entity in ENTITIES)) fail(`${file}: the character reference ${entity} is not one build.mjs decodes; add it to ENTITIES or write the character itself`);
    return ENTITIES[entity];
  });
}

function fail(message) {
  console.error(`docs-site: ${message}`);
  process.exit(1);
}

main();
