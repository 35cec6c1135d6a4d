// tao beside the JS frameworks, in the same run: ../shared/bench-peers (its README, "tao in the
// same run") times a scripted 10-step and 50-step ReAct run per model turn with the floor (a
// hand-written JS loop), the Vercel AI SDK and tao's adapters (a JS model function; the same
// with every event delivered to a listener), interleaved trials, and this prints tao's cost as a
// fraction of the AI SDK's. Only ratios within one run mean anything on a shared machine.
//
//   node scripts/bench-peers.mjs [--trials 3] [--peers ../shared/bench-peers]   (make bench)
//
// Needs `make build` (pkg/) and the harness's dependencies (`npm ci` there once; done here if
// missing, from the registry the harness pins).

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const peers = path.resolve(ROOT, arg("peers", "../shared/bench-peers"));
const trials = arg("trials", "3");
const pkg = path.join(ROOT, "pkg", "tao_agent.js");
if (!fs.existsSync(pkg)) throw new Error("pkg/tao_agent.js is missing: run `make build` first");
if (!fs.existsSync(path.join(peers, "run-overhead.mjs"))) throw new Error(`no bench-peers harness at ${peers}`);
if (!fs.existsSync(path.join(peers, "node_modules", "ai"))) {
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: peers, stdio: "inherit" });
}

const ADAPTERS = ["floor", "ai-sdk", "tao", "tao-events"];
const table = [];
for (const steps of [10, 50]) {
  const run = ["run-overhead.mjs", "--steps", String(steps), "--trials", trials, "--adapters", ADAPTERS.join(","), "--tag", "make-bench"];
  execFileSync(process.execPath, run, { cwd: peers, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, TAO_PKG: pkg } });
  const { rows } = JSON.parse(fs.readFileSync(path.join(peers, "results", `overhead-steps${steps}-make-bench.json`), "utf8"));
  const us = Object.fromEntries(rows.filter((r) => !r.error).map((r) => [r.adapter, r.perTurnUs.median]));
  table.push({ steps, ...us });
}

const cell = (x) => (x === undefined ? "–" : x.toFixed(2));
const ratio = (a, b) => (a && b ? `${(a / b).toFixed(2)}×` : "–");
console.log(`\nµs per model turn, best of ${trials} interleaved trials, one run (results/overhead-steps{10,50}-make-bench.md in ${peers}):\n`);
console.log("| steps | floor | AI SDK | tao | tao + listener | tao ÷ AI SDK | listener adds |");
console.log("|---:|---:|---:|---:|---:|---:|---:|");
for (const r of table) {
  const listener = r["tao-events"] && r.tao ? (r["tao-events"] - r.tao).toFixed(2) : "–";
  console.log(`| ${r.steps} | ${cell(r.floor)} | ${cell(r["ai-sdk"])} | ${cell(r.tao)} | ${cell(r["tao-events"])} | ${ratio(r.tao, r["ai-sdk"])} | ${listener} |`);
}
const [ten, fifty] = table;
console.log(`\ntao at 50 steps is ${ratio(fifty.tao, ten.tao)} its 10-step cost (flat would be 1.00×).`);
