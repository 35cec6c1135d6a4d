//! The ReAct paper's four ways of prompting, as the compare view and the benchmark both name
//! them: ReAct (think and act), Act (act only), CoT (think only) and Standard (answer directly),
//! the prompt format each runs in, and what a run in any of them answered.

/** The paper's modes, in its order. */
export const MODES = ["react", "act", "cot", "standard"];

/** The prompt format of each mode (`paper` is the paper's ReAct format). */
export const FORMAT = { react: "paper", act: "act", cot: "cot", standard: "standard" };

/** The final answer of a trajectory, or null when it ended without one. */
export function answerOf(traj) {
  return traj?.steps?.findLast?.((s) => s.answer !== null && s.answer !== undefined)?.answer ?? traj?.answer ?? null;
}
