// The mock model `paper-bench`: answers the benchmark fixtures (tests/fixtures/react-paper/) in
// whichever of the ReAct paper's four modes the prompt asks for, deterministically, so a test can
// work out the exact match and F1 each mode must score. It reads two things from the request:
//
// - the mode, from the system prompt (src/format/*.rs): CoT's says "step by step", Standard's
//   says "directly", Act's never mentions a "Thought", and the rest is ReAct (the paper format);
// - the question, by finding one of the fixtures' questions or claims in the user's messages.
//
// Then ReAct searches once (`Thought 1: … / Action 1: Search[page]`) and finishes with its answer,
// Act does the same without thoughts, CoT writes `Thought: Let's think step by step. …` and
// `Answer: …`, and Standard writes `Answer: …`. The answers are in the table below: mostly right,
// with some wrong or half right on purpose, so the modes score differently. Used by llm.mjs (both
// the OpenAI and the Anthropic routes); see README.md here.

/**
 * HotpotQA fixtures (hotpot_dev_v1_simplified.json), by index: the page a search finds, and the
 * answer of each mode. Against the gold answers (in the fixture) they score, in the paper's
 * sample order 5, 9, 0, 1, 4 (the first five questions of `paperSample(12, 500)`):
 *
 *   react: 88 days ✓, Neu-Ulm ✓, Ulm ✓, "the River Danube" (EM 0, F1 2/3), Hg ✓  → EM 80.0, F1 93.3
 *   act:   "88" (EM 0, F1 2/3), Munich ✗, Ulm ✓, Danube ✓, Mercury ✗          → EM 40.0, F1 53.3
 */
export const HOTPOTQA = [
  { question: "In which city was the physicist Albert Einstein born?", search: "Albert Einstein", react: "Ulm", act: "Ulm", cot: "Ulm", standard: "Munich" },
  { question: "Which river flows past the city where Albert Einstein was born?", search: "Ulm", react: "the River Danube", act: "Danube", cot: "Danube", standard: "Rhine" },
  { question: "In what year did Albert Einstein receive the Nobel Prize in Physics?", search: "Albert Einstein", react: "1921", act: "1921", cot: "1922", standard: "1921" },
  { question: "Which German state is the birthplace of Albert Einstein in?", search: "Ulm", react: "Baden-Württemberg", act: "Bavaria", cot: "Bavaria", standard: "Bavaria" },
  { question: "What is the chemical symbol of the element mercury?", search: "Mercury (element)", react: "Hg", act: "Mercury", cot: "Hg", standard: "Hg" },
  { question: "How long does a year on the planet Mercury last?", search: "Mercury (planet)", react: "88 days", act: "88", cot: "88 days", standard: "88 days" },
  { question: "Which country did Albert Einstein move to in 1895?", search: "Albert Einstein", react: "Switzerland", act: "Switzerland", cot: "Switzerland", standard: "Italy" },
  { question: "What is the atomic number of the element mercury?", search: "Mercury (element)", react: "80", act: "80", cot: "80", standard: "80" },
  { question: "Around which year was Ulm founded?", search: "Ulm", react: "850", act: "the year 850", cot: "1181", standard: "850" },
  { question: "Which town faces Ulm across the river as its twin town?", search: "Ulm", react: "Neu-Ulm", act: "Munich", cot: "Neu-Ulm", standard: "Neu-Ulm" },
  { question: "Which theory is Albert Einstein best known for developing?", search: "Albert Einstein", react: "the theory of relativity", act: "relativity", cot: "relativity", standard: "quantum mechanics" },
  { question: "How many natural satellites does the planet Mercury have?", search: "Mercury (planet)", react: "none", act: "none", cot: "one", standard: "none" },
];

const S = "SUPPORTS";
const R = "REFUTES";
const N = "NOT ENOUGH INFO";

/** FEVER fixtures (paper_dev.jsonl), by line: the page a search finds, and each mode's label. */
export const FEVER = [
  { claim: "Albert Einstein was born in Ulm.", search: "Albert Einstein", react: S, act: S, cot: S, standard: S },
  { claim: "Ulm lies on the River Thames.", search: "Ulm", react: R, act: N, cot: R, standard: S },
  { claim: "Albert Einstein played the violin in a Munich orchestra.", search: "Albert Einstein", react: N, act: N, cot: S, standard: S },
  { claim: "Mercury is the smallest planet in the Solar System.", search: "Mercury (planet)", react: S, act: S, cot: S, standard: R },
  { claim: "Mercury is a gas at room temperature.", search: "Mercury (element)", react: R, act: R, cot: R, standard: S },
  { claim: "Albert Einstein received the 1921 Nobel Prize in Physics.", search: "Albert Einstein", react: S, act: R, cot: S, standard: S },
  { claim: "Ulm was founded in the 20th century.", search: "Ulm", react: R, act: R, cot: N, standard: R },
  { claim: "The planet Mercury was named by Albert Einstein.", search: "Mercury (planet)", react: N, act: R, cot: R, standard: R },
];

/** The mode a system prompt asks for: "react", "act", "cot" or "standard". */
export function benchMode(system) {
  if (/step by step/i.test(system)) return "cot";
  if (/directly/i.test(system)) return "standard";
  if (!/Thought/.test(system)) return "act";
  return "react";
}

/** The fixture whose question (or claim) the user's text contains, or null. */
export function benchQuestion(userText) {
  return HOTPOTQA.find((q) => userText.includes(q.question)) ?? FEVER.find((c) => userText.includes(c.claim)) ?? null;
}

/**
 * The reply of `paper-bench` at `step` (1-based), for the system prompt and the user's words so
 * far. A question it does not know gets an honest "unknown" in the mode's shape.
 */
export function benchReply(system, userText, step) {
  const mode = benchMode(system);
  const item = benchQuestion(userText);
  const answer = item ? item[mode] : "unknown";
  const page = item ? item.search : "unknown";
  switch (mode) {
    case "cot":
      return `Thought: Let's think step by step. I recall what I know about ${page}. So the answer is ${answer}.\nAnswer: ${answer}`;
    case "standard":
      return `Answer: ${answer}`;
    case "act":
      return step === 1 ? `Action 1: Search[${page}]` : `Action ${step}: Finish[${answer}]`;
    default:
      return step === 1
        ? `Thought 1: I need to search ${page} and find the answer there.\nAction 1: Search[${page}]`
        : `Thought ${step}: The page tells me enough: the answer is ${answer}.\nAction ${step}: Finish[${answer}]`;
  }
}
