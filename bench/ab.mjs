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

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [pkgA, pkgB, stepsArg, events, pairsArg] = process.argv.slice(2);
if (!pkgA || !pkgB) throw new Error("usage: node bench/ab.mjs <pkgA> <pkgB> [steps] [events] [pairs]");
const steps = Number(stepsArg) || 10;
const pairs = Number(pairsArg) || 30;
const { makeScript, echo } = await import(pathToFileURL(path.join(ROOT, "../shared/bench-peers/common/script.mjs")).href);
const script = makeScript(steps);

/** One build's run: an agent made once, as the bench-peers adapter does. */
async function load(dir) {
  const glue = path.resolve(dir, "tao_agent.js");
  const tao = await import(`${pathToFileURL(glue).href}?${dir}`); // a module instance per build
  tao.initSync({ module: readFileSync(glue.replace(/\.js$/, "_bg.wasm")) });
  let i = 0;
  const model = async () => script.responses[i++];
  const agent = new tao.Agent({ model, maxSteps: steps + 5, retries: 0 });
  agent.registerTool({ name: "echo", description: "Echoes its input back. Input: any string." }, (x) => echo(x));
  let heard = 0;
  const options = events === "events" ? { onEvent: () => heard++ } : undefined;
  return async () => {
    i = 0;
    const t = await agent.run(script.question, options);
    if (t.answer !== script.expected) throw new Error(`${dir}: wrong answer ${JSON.stringify(t.answer)}`);
  };
}

/** The median µs per turn of `n` runs. */
async function block(run, n) {
  const times = [];
  for (let k = 0; k < n; k++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1000 / (steps + 1));
  }
  return median(times);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const A = await load(pkgA);
const B = await load(pkgB);
for (let w = 0; w < 3; w++) await block(A, 300), await block(B, 300); // the JIT warms up
const a = [], b = [];
for (let p = 0; p < pairs; p++) {
  // Alternate which goes first, so a drift hits both alike.
  if (p % 2) b.push(await block(B, 60)), a.push(await block(A, 60));
  else a.push(await block(A, 60)), b.push(await block(B, 60));
}
const logs = a.map((x, k) => Math.log(b[k] / x));
const mean = logs.reduce((s, x) => s + x, 0) / pairs;
const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (pairs - 1));
const band = (2 * sd) / Math.sqrt(pairs);
console.log(`A ${median(a).toFixed(2)} µs  B ${median(b).toFixed(2)} µs  B/A ${Math.exp(mean).toFixed(3)} ±${band.toFixed(3)}  (${steps} steps${events ? ", listener" : ""}, ${pairs} pairs)`);
