// Streaming through a JS model's onDelta: the path of ../shared/bench-peers' `agent-ondelta`
// (adapters/tao-common.mjs), timed here because the harness's own check reads `steps[0].raw`,
// which trajectory version 4 keeps in `steps[0].calls[0].raw`. Its synthetic ReAct transcript
// (~50/100/200 KB) in 4-character deltas, through `onDelta`, into one step that the parser reads
// as it streams; median of 5 runs, µs per delta (linear: the same at every size), without and
// with a listener that counts the `token` events.
//
//   node bench/stream_ondelta.mjs            (make bench; needs make build)
//   TAO_PKG=<folder> node bench/stream_ondelta.mjs   (another build: a copy of pkg/)
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PKG = process.env.TAO_PKG ? path.resolve(process.env.TAO_PKG, "tao_agent.js") : path.join(ROOT, "pkg", "tao_agent.js");
const { makeTranscript } = await import(pathToFileURL(path.resolve(ROOT, "../shared/bench-peers/common/script.mjs")).href);
const tao = await import(pathToFileURL(PKG).href);
tao.initSync({ module: readFileSync(PKG.replace(/\.js$/, "_bg.wasm")) });

for (const events of [false, true]) {
  for (const size of [50000, 100000, 200000]) {
    const text = makeTranscript(size).text.replaceAll("Observation:", "Tool output:");
    const chunks = [];
    for (let i = 0; i < text.length; i += 4) chunks.push(text.slice(i, i + 4));
    const once = async () => {
      let tokens = 0;
      const model = async (_messages, { onDelta }) => {
        for (const c of chunks) if (onDelta(c) === false) break;
      };
      const agent = new tao.Agent({ model, maxSteps: 1, retries: 0 });
      agent.registerTool({ name: "echo", description: "Echoes." }, (x) => `echo:${x}`);
      const onEvent = (e) => e.type === "token" && tokens++;
      const t = await agent.run("stream", events ? { onEvent } : undefined);
      agent.free();
      if (t.steps[0].calls[0].raw.length !== text.length) throw new Error("the reply was not kept whole");
      if (events && tokens !== chunks.length) throw new Error("a token event per delta");
    };
    for (let w = 0; w < 3; w++) await once(); // warm up (the JIT)
    const times = [];
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      await once();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const us = (times[2] * 1000) / chunks.length;
    console.log(`onDelta${events ? " + token listener" : ""}: ${size} chars, ${chunks.length} deltas: ${times[2].toFixed(1)} ms, ${us.toFixed(3)} µs/delta`);
  }
}
