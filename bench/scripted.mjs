// One build of tao on ../shared/bench-peers' scripted run (a JS model function returning each
// reply whole, a JS echo tool), for the benches that set two builds side by side in one process
// (ab.mjs, ab_listener.mjs).

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { makeScript, echo } = await import(pathToFileURL(path.join(ROOT, "../shared/bench-peers/common/script.mjs")).href);

/** The build in `dir` (tao_agent.js and its wasm), its agent made once as the bench-peers adapter
 * does: a function that runs the `steps`-step script, with a listener counting the events when
 * `listen`, and checks the answer. */
export async function scriptedRun(dir, steps) {
  const script = makeScript(steps);
  const glue = path.resolve(dir, "tao_agent.js");
  const tao = await import(`${pathToFileURL(glue).href}?${dir}`); // a module instance per build
  tao.initSync({ module: readFileSync(glue.replace(/\.js$/, "_bg.wasm")) });
  let i = 0;
  const model = async () => script.responses[i++];
  const agent = new tao.Agent({ model, maxSteps: steps + 5, retries: 0 });
  agent.registerTool({ name: "echo", description: "Echoes its input back. Input: any string." }, (x) => echo(x));
  let heard = 0;
  const listening = { onEvent: () => heard++ };
  return async (listen) => {
    i = 0;
    const t = await agent.run(script.question, listen ? listening : undefined);
    if (t.answer !== script.expected) throw new Error(`${dir}: wrong answer ${JSON.stringify(t.answer)}`);
  };
}

/** The median µs per turn of `n` runs of `run(listen)` (a run has `steps` + 1 turns). */
export async function block(run, listen, n, steps) {
  const times = [];
  for (let k = 0; k < n; k++) {
    const start = process.hrtime.bigint();
    await run(listen);
    times.push(Number(process.hrtime.bigint() - start) / 1000 / (steps + 1));
  }
  return median(times);
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
