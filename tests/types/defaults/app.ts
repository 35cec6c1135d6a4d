// What a user checks with `tsc app.ts` and no tsconfig at all: TypeScript's defaults (ES5's
// library with the DOM's, CommonJS modules, not strict). scripts/typecheck.mjs copies this file
// and the package's tao.d.ts into an empty folder and runs tsc there.
import { init, Agent, TaoAgent, Trajectory } from "./tao.js";

export function ask(question: string): Promise<string | null> {
  return init().then(() => {
    const agent = new Agent({ tools: ["calculator"], replies: ["Final Answer: 42"] });
    return agent.run(question, { onEvent: (e) => console.log(e.type) });
  }).then((trajectory: Trajectory) => trajectory.answer);
}

const element = document.querySelector("tao-agent") as TaoAgent | null;
if (element) element.replies = ["Final Answer: 42"];
if (element) element.addEventListener("tao-done", (e) => console.log(e.detail.answer));
