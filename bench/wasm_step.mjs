// `make bench` (wasm part): the loop's per-step overhead in wasm under Node, through the JS API
// a page uses: the scripted model replaying 10 replies at zero delay, and an echo tool written
// in JS. Prints a measurement; asserts nothing about time.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { initSync, Agent } = await import(path.join(root, "pkg/tao_agent.js"));
initSync({ module: fs.readFileSync(path.join(root, "pkg/tao_agent_bg.wasm")) });

const replies = [];
for (let i = 1; i < 10; i++) replies.push(`Thought: step ${i}\nAction: echo\nAction Input: value ${i}`);
replies.push("Thought: done\nFinal Answer: 42");

async function run(onEvent) {
  const agent = new Agent({ replies, maxSteps: 10 });
  agent.registerTool({ name: "echo", description: "Repeats its input." }, (input) => String(input));
  const t = await agent.run("count to ten", onEvent ? { onEvent } : undefined);
  if (t.steps.length !== 10 || t.answer !== "42") throw new Error("unexpected run: " + JSON.stringify(t.stop));
  agent.free();
}

console.log("per-step overhead (wasm in Node " + process.version + ", scripted replay at zero delay, JS echo tool, 10-step runs)");
for (const [label, handler] of [["no event listener", null], ["every event to a JS listener", () => {}]]) {
  for (let i = 0; i < 100; i++) await run(handler); // warm up
  const perStep = [];
  for (let batch = 0; batch < 15; batch++) {
    const runs = 100;
    const start = performance.now();
    for (let i = 0; i < runs; i++) await run(handler);
    perStep.push(((performance.now() - start) * 1000) / (runs * 10));
  }
  perStep.sort((a, b) => a - b);
  console.log(`  ${label}: median ${perStep[7].toFixed(1)} µs/step (min ${perStep[0].toFixed(1)}, max ${perStep[14].toFixed(1)}; 15 batches of 100 runs)`);
}
