//! What a step of a trajectory holds, read in one place. In the trajectory file (version 4) a
//! step's first tool call lives on the step itself (`action`, `observation`, `repair`,
//! `approved`, `fuel`, `tool_ms`, `picture`) and the others it made in the same reply in
//! `parallel`; its model calls are `calls`. The page reads those fields only through these two
//! functions, so a new layout of the file is an edit here.

/**
 * A step's tool calls, in the model's order, each `{action, observation, repair, approved, fuel,
 * tool_ms, picture}`: the step's own first (its `action` null when the reply answered or could
 * not be read, then its `repair` says why), then those made beside it. The first is the step
 * itself, so writing to it edits the step (a fork does).
 */
export const toolCalls = (step) => [step, ...(step.parallel ?? [])];

/** A step's model calls, in order: the last is the reply the step is made of. */
export const modelCalls = (step) => step?.calls ?? [];
