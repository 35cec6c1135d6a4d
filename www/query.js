//! The settings a page opens with, from its query string (`?scenario=…&autorun=1`): what a
//! link made by Share (`share.js`) carries. Only settings travel in a link: never a key, never a
//! trajectory.

/** The query string's settings: ?scenario=&format=&lang=&task=&maxSteps=&delay=&tokenBudget=&timeBudget=&memoryTokens=&reflectEvery=&provider=&base=&model=&maxTokens=&firstByte=&idle=&wiki=&tools=&mcp=&mode=step&compare=react,act&autorun=1 (never a key). */
export function readQuery() {
  const q = new URLSearchParams(location.search);
  const num = (key) => (q.has(key) && q.get(key) !== "" && Number.isFinite(Number(q.get(key))) ? Number(q.get(key)) : undefined);
  return {
    scenario: q.get("scenario") ?? undefined,
    format: q.get("format") ?? undefined,
    lang: q.get("lang") ?? undefined,
    task: q.get("task") ?? undefined,
    maxSteps: num("maxSteps"),
    delayMs: num("delay"),
    tokenBudget: num("tokenBudget"),
    timeBudget: num("timeBudget"),
    memoryTokens: num("memoryTokens"),
    reflectEvery: num("reflectEvery"),
    provider: q.get("provider") ?? undefined,
    baseUrl: q.get("base") ?? undefined,
    model: q.get("model") ?? undefined,
    maxTokens: num("maxTokens"),
    firstByteTimeout: num("firstByte"),
    idleTimeout: num("idle"),
    wiki: q.get("wiki") ?? undefined,
    tools: q.has("tools") ? q.get("tools").split(",").filter(Boolean) : undefined,
    mcp: q.has("mcp") ? q.get("mcp").split(" ").filter(Boolean) : undefined,
    stepMode: q.get("mode") === "step" ? true : undefined,
    compare: q.has("compare") ? q.get("compare").split(",").filter(Boolean) : undefined,
    autorun: q.get("autorun") === "1",
  };
}
