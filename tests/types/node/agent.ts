// The package in a Node project without the DOM library: the core, its tools and its offline data.
import { init, Agent, fetchOfflineData, scenarios, type Trajectory, type ToolFunction } from "tao-agent";

await init();
await fetchOfflineData(["scenarios", "knowledge"]);
const count: ToolFunction<{ text: string }> = ({ text }, { signal }) => (signal?.aborted ? "stopped" : String(text.split(" ").length));
const agent = new Agent({ scenario: "apple-ceo", tools: ["search", "count"] });
agent.registerTool({ name: "count", description: "Counts words.", parameters: { type: "object", properties: { text: { type: "string" } } } }, count);
const trajectory: Trajectory = await agent.run(scenarios()[0].task);
agent.free();
export const answer: string | null = trajectory.answer;
// @ts-expect-error: the answer is a string or null
export const wrong: number = trajectory.answer;
