// Type checks of the package's declarations that the README's examples do not reach: each
// line that must be rejected carries @ts-expect-error, so tsc fails if the types start
// accepting it (or if the line stops being an error for another reason than intended).
import { Agent, init, scoreAnswer, vote, paperSample, type TaoEvent, type Trajectory, type TaoAgent, type Score, type Vote, type TrainingRecord } from "tao-agent";

await init();

// An agent needs something to play the model.
// @ts-expect-error: no provider, model function, scenario or replies
new Agent({ format: "mrkl" });
// @ts-expect-error: a misspelled option
new Agent({ scenario: "apple-ceo", maxStep: 3 });
const agent = new Agent({ scenario: "apple-ceo" });

// Tool input is whatever the tool's parameters say.
agent.registerTool<{ query: string }>(
  { name: "docs", description: "Searches the docs.", parameters: { type: "object", properties: { query: { type: "string" } } } },
  ({ query }) => query.toUpperCase(),
);
// @ts-expect-error: `query` is a string, not a number
agent.registerTool<{ query: string }>({ name: "n", description: "" }, ({ query }) => query.toFixed(2));

// MCP servers: URLs, or objects whose headers are strings; the tools are listed with `tools()`.
const remote = new Agent({ replies: [], mcp: ["https://a.example/mcp", { url: "https://b.example/mcp", headers: { Authorization: "Bearer x" }, approve: ["fetch"] }] });
const listed: boolean[] = (await remote.tools()).map((tool) => tool.needsApproval ?? false);
// @ts-expect-error: a header's value is a string
new Agent({ replies: [], mcp: [{ url: "https://b.example/mcp", headers: { Authorization: 42 } }] });
document.querySelector<TaoAgent>("tao-agent")!.mcp = [{ url: "https://a.example/mcp", headers: { Authorization: "Bearer x" } }];

// Events are a discriminated union.
function describe(e: TaoEvent): string {
  switch (e.type) {
    case "action":
      return `${e.tool}(${JSON.stringify(e.input)})`;
    case "observation":
      return e.text;
    case "stopped":
      return e.reason;
    default:
      return e.type;
  }
}
const t: Trajectory = await agent.run("Who?", { onEvent: (e) => console.log(describe(e)) });
t.steps.map((s) => s.tool_calls[0]?.action.tool ?? s.answer);

// The paper's scores, and a run as training data.
const score: Score = await scoreAnswer("hotpotqa", t.answer, "Mobile, Alabama");
// @ts-expect-error: only the paper's datasets
scoreAnswer("squad", "a", "b");
const record: TrainingRecord = agent.trainingRecord(t, { reward: score.f1 });
record.steps.map((s) => s.prompt.length);
const majority: Vote | null = await vote(["Ulm", "ulm", "Munich"]);
const sample: number[] = await paperSample(7405, 5);
console.log(majority?.answer, sample.length);

// The element, from the DOM.
const element: TaoAgent | null = document.querySelector("tao-agent");
element?.addEventListener("tao-answer", (e) => console.log(e.detail.text));
element?.addEventListener("tao-done", (e) => console.log(e.detail.stop?.reason));
// @ts-expect-error: an answer event has no `tool`
element?.addEventListener("tao-answer", (e) => console.log(e.detail.tool));
if (element) {
  element.apiKey = "sk-…";
  element.model = async () => "Final Answer: 42";
}
