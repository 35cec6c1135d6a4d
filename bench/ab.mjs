// Two builds of tao side by side in one Node process: which is cheaper per model turn, and by how
// much. Separate processes on a shared machine differ by 2–4% for nothing; here the two builds
// run in alternating blocks of 60 runs, and the ratio comes with its noise (two standard errors
// of the blocks' log ratios), so a change is kept only when it pays outside that band.
//
//   node bench/ab.mjs <pkgA> <pkgB> [steps=10] [events] [pairs=30]
//
// How far to trust it: a build against an identical copy of itself, 1,000 pairs, reads anywhere
// from 0.989 to 1.012 from run to run (once 1.16), each time with a band of ±0.004: the band is
// the noise within a run, not the drift between runs. So run a change in both orders (A B, then
// B A) with 1,000 pairs, and believe only what both orders agree on beyond about ±1.5%.
//
// <pkg>: a folder with tao_agent.js and tao_agent_bg.wasm (`make build` writes pkg/; copy it
// aside before a change). `events` adds an onEvent listener. The workload is the bench-peers
// scripted run (a JS model function returning each reply whole, a JS echo tool), from
// ../shared/bench-peers. Prints: A's and B's median µs per turn, and B/A ± noise.

import { block, median, scriptedRun } from "./scripted.mjs";

const [pkgA, pkgB, stepsArg, events, pairsArg] = process.argv.slice(2);
if (!pkgA || !pkgB) throw new Error("usage: node bench/ab.mjs <pkgA> <pkgB> [steps] [events] [pairs]");
const steps = Number(stepsArg) || 10;
const pairs = Number(pairsArg) || 30;
const listen = events === "events";
const load = async (dir) => {
  const run = await scriptedRun(dir, steps);
  return (n) => block(run, listen, n, steps);
};

const A = await load(pkgA);
const B = await load(pkgB);
for (let w = 0; w < 3; w++) await A(300), await B(300); // the JIT warms up
const a = [], b = [];
for (let p = 0; p < pairs; p++) {
  // Alternate which goes first, so a drift hits both alike.
  if (p % 2) b.push(await B(60)), a.push(await A(60));
  else a.push(await A(60)), b.push(await B(60));
}
const logs = a.map((x, k) => Math.log(b[k] / x));
const mean = logs.reduce((s, x) => s + x, 0) / pairs;
const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (pairs - 1));
const band = (2 * sd) / Math.sqrt(pairs);
console.log(`A ${median(a).toFixed(2)} µs  B ${median(b).toFixed(2)} µs  B/A ${Math.exp(mean).toFixed(3)} ±${band.toFixed(3)}  (${steps} steps${listen ? ", listener" : ""}, ${pairs} pairs)`);
