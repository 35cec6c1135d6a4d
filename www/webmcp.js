//! The tools the host page offers through WebMCP: a page registers them with
//! `document.modelContext.registerTool({name, description, inputSchema, execute})`, for an agent
//! in the browser to use; tao, in that page, is such an agent. Chrome ships the API behind a
//! flag (chrome://flags "WebMCP", or `--enable-features=WebMCP`; Chromium 156 here): the tools
//! are listed with `getTools()` and called with `executeTool(tool, input)`, which resolves to the
//! JSON text of what the tool's `execute` returned (MCP's `{content, isError}`, or any value).
//! Loaded only by `<tao-agent webmcp>` and the page's Tools panel when the browser has the API.

/** Whether this browser offers WebMCP to the page. */
export const offered = () => typeof document !== "undefined" && typeof document.modelContext?.getTools === "function";

/**
 * Registers on `agent` every tool the page registered with WebMCP, under its own name, its
 * input checked against its schema; returns their names. The page's own tools need no approval
 * (the page chose to offer them). Throws, saying what the browser needs, where there is no WebMCP.
 */
export async function registerPageTools(agent) {
  if (!offered()) {
    throw Object.assign(new Error("this browser offers no WebMCP (document.modelContext): Chrome with the WebMCP flag on (chrome://flags, \"WebMCP\")"), { kind: "config" });
  }
  const context = document.modelContext;
  const tools = await context.getTools();
  for (const tool of tools) {
    const spec = { name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema ?? { type: "object" } };
    agent.registerTool(spec, async (input) => observation(await context.executeTool(tool, input ?? {})));
  }
  return tools.map((tool) => tool.name);
}

/** What the model reads of a tool's result: MCP content's text (other content in words), or the
 * value as JSON; `isError` is the tool failing. */
function observation(returned) {
  let result = returned;
  try {
    result = typeof returned === "string" ? JSON.parse(returned) : returned;
  } catch {
    return String(returned); // plain text
  }
  if (!Array.isArray(result?.content)) return typeof result === "string" ? result : JSON.stringify(result ?? null);
  const text = result.content
    .map((item) => (item?.type === "text" ? String(item.text ?? "") : `[${item?.type ?? "unknown"} content${item?.mimeType ? `: ${item.mimeType}` : ""}]`))
    .join("\n");
  if (result.isError) throw Object.assign(new Error(text || "the tool reported an error"), { kind: "failed" });
  return text;
}
