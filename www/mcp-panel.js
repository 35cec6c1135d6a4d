//! The tools panel's MCP servers, loaded when the first one is added (`tools.js`). A server's
//! tools are listed by a throwaway agent (`agent.tools()` connects, as a run does), and drawn with
//! a switch to use each and one to ask before each call (on by default: a server's tool may
//! change things), its description and input schema as text. What the panel keeps is the `mcp`
//! setting (`panel.mcp`), the token in it: in this tab's memory only, never in a link or a file.

import { t, addWords } from "./i18n.js";
import { state, messageOf } from "./app.js";
import { withAgent } from "./drive.js";
import { el } from "./cards.js";
import { stylesheet } from "./elements.js";

addWords({
  en: {
    mcp: "Add an MCP server (its tools, over HTTP)",
    "mcp.url": "Server URL",
    "mcp.token": "Token (optional; kept in this tab only)",
    "mcp.connect": "Connect",
    "mcp.connecting": "Connecting to {url}…",
    "mcp.connected": "{url}: {count} tools.",
    "mcp.failed": "Not added:",
    "mcp.use": "use",
    "mcp.ask": "ask me before each call",
    "mcp.schema": "input schema",
    "mcp.remove": "Remove server",
  },
  zh: {
    mcp: "添加 MCP 服务器（通过 HTTP 使用它的工具）",
    "mcp.url": "服务器地址",
    "mcp.token": "令牌（可选；只保存在此标签页中）",
    "mcp.connect": "连接",
    "mcp.connecting": "正在连接 {url}……",
    "mcp.connected": "{url}：{count} 个工具。",
    "mcp.failed": "未添加：",
    "mcp.use": "使用",
    "mcp.ask": "每次调用前先问我",
    "mcp.schema": "输入模式",
    "mcp.remove": "移除服务器",
  },
});

/** The servers added: `{url, token, tools: [{name, description, parameters}], off, quiet}` (the
 * names switched off, and the names that may run without asking). */
const servers = [];

const say = (key, values = {}) => t(key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));

/** Draws the form that adds a server in `panel` (once), and puts the focus in it. */
export function open(panel) {
  formOf(panel).elements.url.focus();
}

/** The form, drawn in place of "Add an MCP server…" the first time it is needed. */
function formOf(panel) {
  const box = panel.querySelector("[data-mcp-box]");
  let form = box.querySelector("[data-mcp]");
  if (form) return form;
  const field = (id, label, input) => {
    const wrap = el("div", { class: id === "mcpUrl" ? "field field-wide" : "field" });
    wrap.append(el("label", { for: id, "data-i18n": label }, t(label)), el("input", { id, spellcheck: "false", ...input }));
    return wrap;
  };
  const row = el("div", { class: "row" });
  row.append(field("mcpUrl", "mcp.url", { name: "url", type: "url", required: "", placeholder: "https://example.com/mcp" }), field("mcpToken", "mcp.token", { name: "token", type: "password" }));
  const submit = el("p");
  submit.append(el("button", { type: "submit", class: "quiet", "data-i18n": "mcp.connect" }, t("mcp.connect")), " ", el("span", { class: "hint", role: "status", "data-mcp-status": "" }));
  const set = el("fieldset");
  set.append(el("legend", { "data-i18n": "mcp" }, t("mcp")), row, submit);
  form = el("form", { class: "upload mcp", "data-mcp": "", autocomplete: "off" });
  form.append(set, el("div", { "data-mcp-servers": "" }));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    form.querySelector("[data-mcp-status]").textContent = ""; // what it said of the last one
    addServer(panel, form.elements.url.value.trim(), form.elements.token.value.trim());
  });
  box.replaceChildren(form);
  stylesheet("mcp-panel.css");
  // Drawn again in the page's language when it changes (the words marked data-i18n redraw themselves).
  document.addEventListener("tao:lang", () => draw(panel));
  return form;
}

/** Connects to `url` and adds its tools to `panel` (again, with a new token, if it is there):
 * true, or what went wrong (also said in the panel). */
export async function addServer(panel, url, token) {
  const form = formOf(panel);
  const status = panel.querySelector("[data-mcp-status]");
  status.dataset.ok = "";
  status.textContent = say("mcp.connecting", { url });
  const server = { url, token, tools: [], off: new Set(), quiet: new Set() };
  try {
    const config = { mcp: [setting(server)], replies: [] };
    server.tools = await withAgent(new state.tao.Agent(config), (agent) => agent.tools());
  } catch (e) {
    status.dataset.ok = "false";
    status.textContent = `${t("mcp.failed")} ${messageOf(e)}`;
    form.elements.url.value = url; // ready to try again (with a token, say)
    return status.textContent;
  }
  const at = servers.findIndex((s) => s.url === url);
  servers.splice(at < 0 ? servers.length : at, at < 0 ? 0 : 1, server);
  status.dataset.ok = "true";
  status.textContent = say("mcp.connected", { url, count: server.tools.length });
  form.elements.url.value = form.elements.token.value = "";
  changed(panel);
  return true;
}

/** One server's entry of the `mcp` setting. */
function setting(server) {
  const entry = { url: server.url };
  if (server.token) entry.headers = { Authorization: `Bearer ${server.token}` };
  if (server.tools.length) {
    entry.tools = server.tools.map((tool) => tool.name).filter((name) => !server.off.has(name));
    entry.approve = server.tools.map((tool) => tool.name).filter((name) => !server.quiet.has(name));
  }
  return entry;
}

/** The setting changed: kept on the panel, drawn (unless a switch changed: it shows itself, and
 * keeps the focus), and said (`tao:tools`). */
function changed(panel, redraw = true) {
  panel.mcp = servers.map(setting);
  if (redraw) draw(panel);
  panel.dispatchEvent(new CustomEvent("tao:tools", { bubbles: true, detail: { ...panel.settings(), wikiChosen: false } }));
}

function draw(panel) {
  const box = panel.querySelector("[data-mcp-servers]");
  box.replaceChildren(...servers.map((server) => serverBox(panel, server)));
}

/** A server: its URL, its tools with their switches, and Remove. All its words are the server's
 * own text, set as text. */
function serverBox(panel, server) {
  const remove = el("button", { type: "button", class: "quiet small" }, t("mcp.remove"));
  remove.addEventListener("click", () => {
    servers.splice(servers.indexOf(server), 1);
    panel.querySelector("#mcpUrl").focus(); // the button goes with its server
    changed(panel);
  });
  const rows = server.tools.map((tool) => {
    const use = check(!server.off.has(tool.name), server.off, tool.name, panel);
    const ask = check(!server.quiet.has(tool.name), server.quiet, tool.name, panel);
    use.setAttribute("aria-label", `${t("mcp.use")} ${tool.name}`);
    ask.setAttribute("aria-label", `${t("mcp.ask")}: ${tool.name}`);
    const schema = el("details", { class: "mcp-schema" });
    schema.append(el("summary", {}, t("mcp.schema")), el("pre", { tabindex: "0" }, JSON.stringify(tool.parameters, null, 2)));
    const row = el("li", { class: "tool-row", "data-mcp-tool": tool.name });
    const useLabel = el("label", { class: "check" });
    useLabel.append(use, el("code", {}, tool.name));
    const askLabel = el("label", { class: "check" });
    askLabel.append(ask, ` ${t("mcp.ask")}`);
    const more = el("div", { class: "mcp-more" });
    more.append(askLabel, schema);
    row.append(useLabel, el("span", { class: "tool-description" }, tool.description), more);
    return row;
  });
  const list = el("ul", { class: "tools-list" });
  list.append(...rows);
  const head = el("p", { class: "mcp-head" });
  head.append(el("code", {}, server.url), " ", remove);
  const box = el("section", { class: "mcp-server", "data-mcp-server": server.url, "aria-label": server.url });
  box.append(head, list);
  return box;
}

/** A checkbox that is on unless `name` is in `set` (it takes `name` out when ticked). */
function check(on, set, name, panel) {
  const box = el("input", { type: "checkbox" });
  box.checked = on;
  box.addEventListener("change", () => {
    if (box.checked) set.delete(name);
    else set.add(name);
    changed(panel, false);
  });
  return box;
}
