// What an event listener adds to a turn, in two builds of tao side by side in one Node process.
// bench/ab.mjs compares whole turns, whose drift between runs (±1.5%) is a third of what a
// listener costs; here each round times, for each build, a block of runs without a listener and
// one with, back to back, and takes the difference, so the drift of the machine falls out.
//
//   [STEPS=50] node bench/ab_listener.mjs <pkgA> <pkgB> [rounds=400]
//
// How far to trust it: a build against a copy of itself reads within ±0.25 µs (on a machine
// where a listener adds about 5 µs); a process can favour one build by about as much, so run
// both orders (A B, then B A) and believe what both agree on.
//
// <pkg>: a folder with tao_agent.js and tao_agent_bg.wasm (`make build` writes pkg/; copy it
// aside before a change). The workload is ../shared/bench-peers' scripted 10-step run (a JS
// model function returning each reply whole, a JS echo tool); the listener counts the events.
// Prints: each build's median µs per turn without a listener, the mean µs a listener adds to a
// turn (± two standard errors of the rounds), and B's minus A's.

import { block, median, scriptedRun } from "./scripted.mjs";

const [pkgA, pkgB, roundsArg] = process.argv.slice(2);
if (!pkgA || !pkgB) throw new Error("usage: node bench/ab_listener.mjs <pkgA> <pkgB> [rounds]");
const steps = Number(process.env.STEPS) || 10;
const rounds = Number(roundsArg) || 400;
const load = async (dir) => ({ run: await scriptedRun(dir, steps), quiet: [], adds: [] });
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const band = (xs) => 2 * Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length);

const builds = [await load(pkgA), await load(pkgB)];
for (let w = 0; w < 3; w++) for (const b of builds) for (const listen of [false, true]) await block(b.run, listen, 200, steps); // the JIT warms up
for (let r = 0; r < rounds; r++) {
  // Alternate which goes first, so a drift hits both alike.
  for (const b of r % 2 ? [...builds].reverse() : builds) {
    const quiet = await block(b.run, false, 30, steps);
    b.quiet.push(quiet);
    b.adds.push((await block(b.run, true, 30, steps)) - quiet);
  }
}
const [A, B] = builds;
const diff = B.adds.map((x, k) => x - A.adds[k]);
const f = (x) => x.toFixed(2);
console.log(
  `without a listener: A ${f(median(A.quiet))} µs, B ${f(median(B.quiet))} µs a turn | a listener adds: ` +
    `A ${f(mean(A.adds))} ±${f(band(A.adds))}, B ${f(mean(B.adds))} ±${f(band(B.adds))}, ` +
    `B−A ${f(mean(diff))} ±${f(band(diff))} µs a turn (${steps} steps, ${rounds} rounds)`,
);
