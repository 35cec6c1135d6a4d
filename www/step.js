//! What a step of a trajectory holds, read in one place. In the trajectory file (version 5) a
//! step's tool calls are `tool_calls` (each `{action, observation, repair, approved, fuel, ms,
//! picture}`, in the model's order) and its model calls `model_calls`; a reply that could not
//! be used at all has no tool call, and its `repair` says why. The page reads those fields
//! through these functions, so a new layout of the file is an edit here.

/** A step's tool calls, in the model's order (none when it answered or its reply was repaired). */
export const toolCalls = (step) => step?.tool_calls ?? [];

/** A step's model calls, in order: the last is the reply the step is made of. */
export const modelCalls = (step) => step?.model_calls ?? [];
