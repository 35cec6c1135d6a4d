// Tests for the mock MediaWiki (mediawiki.mjs), run with `node --test tests/mock/`. They ask it
// what tao's `search` tool asks (and a little more), with Node's fetch, and check the replies
// against the real Action API's shapes (format=json&formatversion=2): pages with extracts and
// pageprops, `normalized`, `redirects`, `missing`, list=search with `searchinfo` and `continue`,
// error objects, CORS by `origin=*`; then the failures, the wiki's own facts the native tests
// rely on, the LLM mock serving the same wiki, and the command line.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startMockLlm } from "./llm.mjs";
import { WIKI, startMockMediaWiki } from "./mediawiki.mjs";

let wiki;
before(async () => {
  wiki = await startMockMediaWiki();
});
after(() => wiki.close());

/** GET a query: the fixed parameters every tao query has, then `params` (URL-encoded here). */
async function query(params, { base = wiki.api, origin = true } = {}) {
  const all = new URLSearchParams({ action: "query", format: "json", formatversion: "2", ...(origin ? { origin: "*" } : {}), ...params });
  const res = await fetch(`${base}?${all}`);
  return { res, text: await res.text() };
}

const json = async (params, options) => JSON.parse((await query(params, options)).text);

/** What tao's `search` asks first. */
const PAGE = { prop: "extracts|pageprops", explaintext: "1", ppprop: "disambiguation", redirects: "1" };
const page = (title) => WIKI.pages.find((p) => p.title === title);

// --- Pages ---------------------------------------------------------------------------------------

describe("prop=extracts|pageprops", () => {
  test("a page: id, namespace, title and its plain text, with CORS for origin=*", async () => {
    const { res, text } = await query({ ...PAGE, titles: "Albert Einstein" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.deepEqual(JSON.parse(text), {
      batchcomplete: true,
      query: { pages: [{ pageid: 736, ns: 0, title: "Albert Einstein", extract: page("Albert Einstein").extract }] },
    });
  });

  test("without origin=* there is no CORS header (a browser would refuse the answer)", async () => {
    const { res } = await query({ ...PAGE, titles: "Ulm" }, { origin: false });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), null);
  });

  test("titles are normalised, then redirects followed, each reported", async () => {
    assert.deepEqual(await json({ ...PAGE, titles: "einstein" }), {
      batchcomplete: true,
      query: {
        normalized: [{ fromencoded: false, from: "einstein", to: "Einstein" }],
        redirects: [{ from: "Einstein", to: "Albert Einstein" }],
        pages: [{ pageid: 736, ns: 0, title: "Albert Einstein", extract: page("Albert Einstein").extract }],
      },
    });
    const zh = await json({ ...PAGE, titles: "爱因斯坦", converttitles: "1", variant: "zh-cn" });
    assert.deepEqual(zh.query.redirects, [{ from: "爱因斯坦", to: "阿尔伯特·爱因斯坦" }]);
    assert.equal(zh.query.pages[0].title, "阿尔伯特·爱因斯坦");
    assert.ok(zh.query.pages[0].extract.startsWith("阿尔伯特·爱因斯坦（1879年3月14日"));
  });

  test("tao's own URL: every value percent-encoded UTF-8 (spaces as %20, | as %7C)", async () => {
    const url = `${wiki.api}?action=query&format=json&formatversion=2&origin=*&prop=extracts%7Cpageprops&explaintext=1&ppprop=disambiguation&redirects=1&titles=%E7%88%B1%E5%9B%A0%E6%96%AF%E5%9D%A6&converttitles=1&variant=zh-cn`;
    const reply = await (await fetch(url)).json();
    assert.equal(reply.query.pages[0].title, "阿尔伯特·爱因斯坦");
    const search = `${wiki.api}?action=query&format=json&formatversion=2&origin=*&list=search&srsearch=Einstein%20birthplace&srlimit=5`;
    assert.deepEqual((await (await fetch(search)).json()).query.search.map((h) => h.title), ["Albert Einstein", "Ulm"]);
  });

  test("without redirects=1 a redirect is a page of its own", async () => {
    const reply = await json({ prop: "extracts", titles: "Einstein" });
    assert.deepEqual(reply.query.pages, [{ pageid: 100000, ns: 0, title: "Einstein", redirect: true, extract: "" }]);
  });

  test("a missing page", async () => {
    assert.deepEqual(await json({ ...PAGE, titles: "Zanzibar cricket" }), {
      batchcomplete: true,
      query: { pages: [{ ns: 0, title: "Zanzibar cricket", missing: true }] },
    });
  });

  test("a disambiguation page carries pageprops.disambiguation when asked for", async () => {
    const asked = await json({ ...PAGE, titles: "Mercury" });
    assert.deepEqual(asked.query.pages[0].pageprops, { disambiguation: "" });
    assert.ok(asked.query.pages[0].extract.startsWith("Mercury may refer to:\n\n"));
    const notAsked = await json({ prop: "extracts", titles: "Mercury" });
    assert.equal(notAsked.query.pages[0].pageprops, undefined);
    const ulm = await json({ ...PAGE, titles: "Ulm" });
    assert.equal(ulm.query.pages[0].pageprops, undefined);
  });

  test("several titles at once, split at |", async () => {
    const reply = await json({ prop: "extracts", titles: "Ulm|Nowhere" });
    assert.deepEqual(reply.query.pages.map((p) => [p.title, Boolean(p.missing)]), [["Ulm", false], ["Nowhere", true]]);
  });
});

// --- Search --------------------------------------------------------------------------------------

describe("list=search", () => {
  test("titles ranked by the words of the query, with searchinfo", async () => {
    const reply = await json({ list: "search", srsearch: "Einstein birthplace", srlimit: "5" });
    assert.deepEqual(reply.query.searchinfo, { totalhits: 2 });
    assert.deepEqual(reply.query.search.map((h) => h.title), ["Albert Einstein", "Ulm"]);
    const hit = reply.query.search[0];
    assert.deepEqual(Object.keys(hit), ["ns", "title", "pageid", "size", "wordcount", "snippet", "timestamp"]);
    assert.equal(hit.pageid, 736);
    assert.equal(reply.continue, undefined);
  });

  test("srlimit cuts the list and a continue says where the rest starts", async () => {
    const reply = await json({ list: "search", srsearch: "mercury", srlimit: "2" });
    assert.deepEqual(reply.query.search.map((h) => h.title), ["Mercury", "Mercury (planet)"]);
    assert.deepEqual(reply.query.searchinfo, { totalhits: 3 });
    assert.deepEqual(reply.continue, { sroffset: 2, continue: "-||" });
  });

  test("nothing found is an empty list", async () => {
    const reply = await json({ list: "search", srsearch: "Zanzibar cricket", srlimit: "5" });
    assert.deepEqual(reply.query, { searchinfo: { totalhits: 0 }, search: [] });
  });

  test("no srsearch is the API's missingparam error", async () => {
    const reply = await json({ list: "search" });
    assert.equal(reply.error.code, "missingparam");
    assert.equal(reply.error.info, 'The "srsearch" parameter must be set.');
  });
});

// --- Errors and failures -------------------------------------------------------------------------

describe("errors and failures", () => {
  test("an unknown action is the API's badvalue error, with status 200", async () => {
    const { res, text } = await query({ action: "parse" });
    assert.equal(res.status, 200);
    const reply = JSON.parse(text);
    assert.equal(reply.error.code, "badvalue");
    assert.equal(reply.error.info, 'Unrecognized value for parameter "action": parse.');
    assert.match(reply.error.docref, /API:Main_page/);
  });

  test("only formatversion=2 is spoken, and the mock says so", async () => {
    const reply = await json({ formatversion: "1", titles: "Ulm" });
    assert.equal(reply.error.code, "mock-unsupported");
  });

  test("HTTP 500 with an HTML page", async () => {
    const { res, text } = await query({ ...PAGE, titles: "Mock: HTTP 500" });
    assert.equal(res.status, 500);
    assert.match(text, /^<!DOCTYPE html>.*Wikimedia Error/);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
  });

  test("a reply cut in the middle is not JSON", async () => {
    const { res, text } = await query({ ...PAGE, titles: "Mock: bad JSON" });
    assert.equal(res.status, 200);
    assert.throws(() => JSON.parse(text), SyntaxError);
  });

  test("an API error object (rate limited), from a search too", async () => {
    for (const params of [{ ...PAGE, titles: "Mock: API error" }, { list: "search", srsearch: "Mock: API error" }]) {
      const reply = await json(params);
      assert.deepEqual(Object.keys(reply), ["error", "servedby"]);
      assert.equal(reply.error.code, "ratelimited");
    }
  });

  test("a reset connection makes fetch fail", async () => {
    await assert.rejects(query({ ...PAGE, titles: "Mock: connection reset" }), TypeError);
  });

  test("POST is refused, other paths are not the wiki's", async () => {
    assert.equal((await fetch(wiki.api, { method: "POST", body: "action=query" })).status, 405);
    assert.equal((await fetch(`${wiki.url}/wiki/Ulm`)).status, 404);
  });
});

// --- The wiki's facts ----------------------------------------------------------------------------

test("pages.json keeps the facts the tests rely on", () => {
  // Sentences as tao splits an extract: by line, then at ". " and "。", without headings.
  const sentences = (text) => text.split("\n").map((l) => l.trim()).filter((l) => l && !/^==.*==$/.test(l))
    .flatMap((l) => l.split(/(?<=[.!?])\s+|(?<=[。！？])/)).map((s) => s.trim()).filter(Boolean);
  const einstein = sentences(page("Albert Einstein").extract);
  assert.ok(!einstein.slice(0, 5).join(" ").includes("Ulm"), "the birthplace is not in the first five sentences");
  const born = einstein.filter((s) => s.toLowerCase().includes("born"));
  assert.equal(born.length, 2, "lookup[born] needs two calls");
  assert.ok(born[0].startsWith("Born in the German Empire") && einstein.indexOf(born[0]) < 5);
  assert.match(born[1], /born in Ulm/);
  assert.match(sentences(page("Ulm").extract)[0], /Baden-Württemberg, Germany/);
  const zh = sentences(page("阿尔伯特·爱因斯坦").extract);
  assert.ok(!zh.slice(0, 5).join("").includes("乌尔姆"));
  assert.equal(zh.filter((s) => s.includes("出生")).length, 2);
  for (const [from, to] of Object.entries(WIKI.redirects)) assert.ok(page(to), `${from} redirects to a page`);
});

// --- Served by the LLM mock too ------------------------------------------------------------------

test("the LLM mock serves the same wiki, and does not log it", async () => {
  const llm = await startMockLlm({ delayMs: 1 });
  try {
    const { res, text } = await query({ ...PAGE, titles: "乌尔姆" }, { base: `${llm.url}/w/api.php` });
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(text, (await query({ ...PAGE, titles: "乌尔姆" })).text);
    assert.deepEqual(llm.log, []);
    assert.equal((await fetch(`${llm.url}/v1/nowhere`)).status, 404, "the LLM mock's other routes are unchanged");
  } finally {
    await llm.close();
  }
});

// --- Command line --------------------------------------------------------------------------------

test("CLI: --port 0 prints its URL and serves", async () => {
  const script = fileURLToPath(new URL("./mediawiki.mjs", import.meta.url));
  const child = spawn(process.execPath, [script, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    let out = "";
    while (!out.includes("\n")) {
      const [chunk] = await once(child.stdout, "data");
      out += chunk;
    }
    const match = out.match(/^mock mediawiki listening on (http:\/\/127\.0\.0\.1:(\d+)\/w\/api\.php)\n$/);
    assert.ok(match, `printed ${JSON.stringify(out)}`);
    assert.notEqual(match[2], "0");
    const reply = await json({ ...PAGE, titles: "Ulm" }, { base: match[1] });
    assert.equal(reply.query.pages[0].pageid, page("Ulm").pageid);
  } finally {
    child.kill("SIGTERM");
    await once(child, "exit");
  }
});
