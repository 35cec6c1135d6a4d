// A mock MediaWiki Action API for tao's tests: `GET /w/api.php?action=query&...` answered in the
// real API's JSON (format=json&formatversion=2) from the small wiki in tests/wiki/pages.json, the
// same file the native tests (tests/wikipedia.rs) answer from. What it speaks, as the real API:
//
//   prop=extracts (TextExtracts; plain text, `== Section ==` headings) and prop=pageprops
//   (`disambiguation`), for `titles` (split at `|`), with `normalized` (first letter upper-cased,
//   `_` as space), `redirects` (with redirects=1), and `missing: true` pages;
//   list=search (srsearch, srlimit) with `searchinfo.totalhits` and `continue`;
//   `{"error": {"code", "info", "docref"}}` for a bad action or a missing srsearch;
//   CORS: `Access-Control-Allow-Origin: *` when the query has origin=* (MediaWiki's rule; a
//   query without it gets no CORS header, so a browser refuses the answer).
//
// Titles and search texts listed under `failures` in pages.json fail instead, as written there
// (HTTP 500, a cut JSON reply, an API error object, a reset connection). Plain Node 20, `node:` built-ins only.
//
//   import { handleMediaWiki, startMockMediaWiki } from "./mediawiki.mjs";
//   if (handleMediaWiki(req, res)) return;             // inside any node:http server
//   const wiki = await startMockMediaWiki({ port: 0 }); // or on its own: wiki.url + "/w/api.php"
//
// Or from a shell: `node tests/mock/mediawiki.mjs --port 8124`. See README.md here.

import fs from "node:fs";
import http from "node:http";
import process from "node:process";
import { pathToFileURL } from "node:url";

/** The wiki: `{ pages: [{ pageid, title, extract, disambiguation? }], redirects, failures }`. */
export const WIKI = JSON.parse(fs.readFileSync(new URL("../wiki/pages.json", import.meta.url), "utf8"));

const DOCREF = "See https://www.mediawiki.org/wiki/API:Main_page for API usage.";

/** MediaWiki's title normalisation, the part that matters here: `_` is a space, spaces are
 * collapsed and trimmed, and the first letter is upper case. */
export function normalize(title) {
  const t = title.replace(/_/g, " ").replace(/\s+/g, " ").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** The titles `list=search` finds for `text`, best first (the rule is in pages.json). */
export function search(text) {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const scored = WIKI.pages.map((page) => {
    const title = page.title.toLowerCase();
    const body = page.extract.toLowerCase();
    const score = words.reduce((sum, w) => sum + (title.includes(w) ? 2 : body.includes(w) ? 1 : 0), 0);
    return { page, score };
  });
  // Array.prototype.sort is stable: ties keep the file's order.
  return scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score).map((s) => s.page);
}

/** The answer to one query: `{ status, body }` (body is a JSON value), or `{ failure }` (an
 * entry of `failures` in pages.json). */
export function answer(params) {
  const error = (code, info) => ({ status: 200, body: { error: { code, info, docref: DOCREF }, servedby: "mock" } });
  const action = params.get("action");
  if (action !== "query") return error("badvalue", `Unrecognized value for parameter "action": ${action ?? ""}.`);
  if (params.get("format") !== "json" || params.get("formatversion") !== "2") {
    return error("mock-unsupported", "This mock answers only format=json&formatversion=2.");
  }
  for (const key of ["titles", "srsearch"]) {
    const failure = WIKI.failures[params.get(key) ?? ""];
    if (failure) return { failure };
  }

  const query = {};
  const body = { batchcomplete: true, query };
  const props = (params.get("prop") ?? "").split("|");
  const ppprop = params.has("ppprop") ? params.get("ppprop").split("|") : null;

  if (params.has("titles")) {
    const normalized = [];
    const redirects = [];
    const pages = params.get("titles").split("|").map((asked) => {
      let title = normalize(asked);
      if (title !== asked) normalized.push({ fromencoded: false, from: asked, to: title });
      const target = WIKI.redirects[title];
      if (target && params.has("redirects")) {
        redirects.push({ from: title, to: target });
        title = target;
      }
      if (target && !params.has("redirects")) {
        // The redirect page itself (an id of its own; its text is not a page's, so it is empty).
        const pageid = 100000 + Object.keys(WIKI.redirects).indexOf(title);
        return { pageid, ns: 0, title, redirect: true, ...(props.includes("extracts") ? { extract: "" } : {}) };
      }
      const page = WIKI.pages.find((p) => p.title === title);
      if (!page) return { ns: 0, title, missing: true };
      const out = { pageid: page.pageid, ns: 0, title: page.title };
      if (props.includes("extracts")) out.extract = page.extract;
      if (props.includes("pageprops") && page.disambiguation && (!ppprop || ppprop.includes("disambiguation"))) {
        out.pageprops = { disambiguation: "" };
      }
      return out;
    });
    // In the real API's order: how the titles were read, then the pages.
    if (normalized.length) query.normalized = normalized;
    if (redirects.length) query.redirects = redirects;
    query.pages = pages;
  }

  if ((params.get("list") ?? "").split("|").includes("search")) {
    const text = params.get("srsearch");
    if (!text) return error("missingparam", 'The "srsearch" parameter must be set.');
    const limit = Math.min(Math.max(Number(params.get("srlimit") ?? 10) || 10, 1), 500);
    const found = search(text);
    query.searchinfo = { totalhits: found.length };
    query.search = found.slice(0, limit).map((page) => ({
      ns: 0,
      title: page.title,
      pageid: page.pageid,
      size: Buffer.byteLength(page.extract),
      wordcount: page.extract.split(/\s+/).length,
      snippet: page.extract.slice(0, 80).replace(/&/g, "&amp;").replace(/</g, "&lt;"),
      timestamp: "2024-06-01T12:00:00Z",
    }));
    if (found.length > limit) body.continue = { sroffset: limit, continue: "-||" };
  }
  return { status: 200, body };
}

/**
 * Answers `req` if it is for `/w/api.php` (any prefix: `/zh/w/api.php` too) and returns true;
 * otherwise returns false and leaves `res` alone.
 */
export function handleMediaWiki(req, res) {
  const url = new URL(req.url, "http://127.0.0.1");
  if (!url.pathname.endsWith("/w/api.php")) return false;
  const cors = url.searchParams.get("origin") === "*" ? { "Access-Control-Allow-Origin": "*" } : {};
  const send = (status, type, text) => {
    res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(text), ...cors });
    res.end(text);
  };
  if (req.method === "OPTIONS") {
    res.writeHead(204, { ...cors, "Access-Control-Allow-Methods": "GET, HEAD, POST, OPTIONS" });
    res.end();
    return true;
  }
  if (req.method !== "GET") {
    send(405, "text/plain", "the mock answers GET only");
    return true;
  }
  const reply = answer(url.searchParams);
  if (reply.failure?.reset) {
    req.socket.destroy();
  } else if (reply.failure) {
    send(reply.failure.status, reply.failure.type, reply.failure.body);
  } else {
    send(reply.status, "application/json; charset=utf-8", JSON.stringify(reply.body));
  }
  return true;
}

/** Starts the mock on 127.0.0.1 (port 0, the default, picks a free port). */
export async function startMockMediaWiki({ port = 0 } = {}) {
  const server = http.createServer((req, res) => {
    if (!handleMediaWiki(req, res)) {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("404 page not found");
    }
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    api: `${url}/w/api.php`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

// Command line: `node tests/mock/mediawiki.mjs --port 8124`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--port");
  const port = i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : 8124;
  const wiki = await startMockMediaWiki({ port });
  console.log(`mock mediawiki listening on ${wiki.api}`);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => wiki.close().then(() => process.exit(0)));
  }
}
