// The demo page's own tools, as an Agent registers them (api.md: the scenarios code, stock-chart
// and units use them).
import { Agent, init } from "tao-agent";
import { codeTool, runCode } from "tao-agent/code-tool";
import { wasmTool, EXAMPLE_TOOLS } from "tao-agent/wasm-tool";

await init();
const agent = new Agent({ scenario: "stock-chart" });
const csv = await fetch("tao-agent/samples/stock_prices.csv").then((r) => r.text());
const code = codeTool({ files: () => ({ "stock_prices.csv": csv }) });
agent.registerTool(code.spec, code.fn);
const units = await wasmTool(EXAMPLE_TOOLS[1]);
agent.registerTool(units.spec, units.fn);
const result = await runCode("6 * 7");
const value: string | undefined = result.value;
// @ts-expect-error: a tool is registered as its spec and its function, not as one object
agent.registerTool(code);
// @ts-expect-error: a wasm tool needs a description
await wasmTool({ name: "x", url: "x.wasm" });
export { value };
