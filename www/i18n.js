//! The page's words in English and Chinese.
//!
//! A small dictionary, no library: `t(key)` looks a key up in the current language and falls
//! back to English, then to the key itself, so a missing translation shows up as readable text
//! instead of `undefined`. Static markup names its words with `data-i18n="key"` (text) or
//! `data-i18n-placeholder` / `data-i18n-title` / `data-i18n-aria-label` (attributes), and
//! `applyI18n()` fills them in. The language chosen here is also the agent's prompt language.

/** The languages the page (and the agent's prompts) speak. */
export const LANGS = ["en", "zh"];

const en = {
  "format.tools": "tools (native tool calling)",
  "format.auto": "auto (native, else mrkl)",
  "model": "Model",
  "provider": "Provider",
  "provider.scripted": "scripted (offline, no key)",
  "provider.openai": "OpenAI-compatible",
  "provider.ollama": "Ollama (local)",
  "provider.anthropic": "Anthropic",
  "baseUrl": "Base URL",
  "modelName": "Model name",
  "apiKey": "API key",
  "apiKey.placeholder": "kept in this tab's memory only",
  "remember": "Remember on this device",
  "remember.warning": "Stored unencrypted in this browser (localStorage): anyone with this browser profile, or a script on this site, can read it.",
  "test": "Test connection",
  "test.running": "Testing…",
  "test.ok": "Connected:",
  "test.firstToken": "first token",
  "test.total": "total",
  "test.streamed": "streamed",
  "test.notStreamed": "not streamed",
  "cors.hint": "The page calls the provider directly from your browser. Local servers must allow it: Ollama needs OLLAMA_ORIGINS=\"*\" (or this page's origin).",
  "card.switch": "Switched format:",
  "timing.firstToken": "first token",
  "stat.tokens": "Tokens (in / out)",
  "tagline": "a ReAct agent in your browser: Thought → Action → Observation",
  "scenario": "Scenario",
  "task": "Task",
  "task.placeholder": "Ask something the agent can look up or compute…",
  "format": "Format",
  "format.mrkl": "mrkl (LangChain)",
  "format.paper": "paper (ReAct paper)",
  "format.help": "mrkl: Thought / Action / Action Input / Final Answer. paper: Thought 1 / Action 1: Tool[input] / Finish[answer].",
  "language": "Language",
  "maxSteps": "Max steps",
  "speed": "Speed",
  "speed.0": "instant",
  "speed.10": "fast",
  "speed.30": "normal",
  "speed.80": "slow",
  "speed.200": "very slow",
  "run": "Run",
  "stop": "Stop",
  "export": "Export JSON",
  "import": "Import",
  "share": "Share",
  "settings": "Settings",
  "empty.title": "Watch the loop think.",
  "empty.body": "Pick a scenario and press Run. Each step streams the model's words, then splits them into a Thought, an Action and the Observation the tool sends back, until an Answer.",
  "card.task": "Task",
  "card.thought": "Thought",
  "card.action": "Action",
  "card.observation": "Observation",
  "card.answer": "Answer",
  "card.repair": "Bad call → repair observation",
  "card.retry": "Bad call → retried",
  "legend.repair": "Bad call → repair",
  "card.note": "Note",
  "card.stop": "Stopped",
  "card.raw": "Raw model output",
  "card.streaming": "model is writing…",
  "card.tool": "tool",
  "card.why": "why",
  "step": "Step",
  "meta.model": "model",
  "meta.format": "format",
  "meta.lang": "language",
  "timing.model": "model",
  "timing.tool": "tool",
  "usage.tokens": "tokens",
  "stat.n_calls": "Model calls",
  "stat.n_badcalls": "Bad calls",
  "stat.steps": "Steps",
  "stat.elapsed": "Elapsed",
  "stat.stop": "Stop",
  "reason.answer": "answered",
  "reason.max_steps": "max steps reached",
  "reason.aborted": "aborted",
  "reason.error": "error",
  "reason.running": "running…",
  "reason.idle": "–",
  "status.loading": "Loading the agent…",
  "status.ready": "Ready.",
  "status.linkCopied": "Share link copied to the clipboard (it is also in the address bar).",
  "status.linkReady": "Share link is in the address bar.",
  "status.imported": "Imported",
  "status.exported": "Saved trajectory.json",
  "status.nothingToExport": "Nothing to export yet: run a task or import a trajectory first.",
  "error.import": "Could not import this file:",
  "error.load": "Could not load the agent from pkg/tao_agent.js. Build it first with `make build`.",
  "error.run": "The run failed:",
  "footer": "Runs offline with a scripted model: no key, no server. Model and tool text is always shown as text, never as HTML.",
  "footer.export": "Trajectories export as JSON and import back.",
};

const zh = {
  "format.tools": "tools(原生工具调用)",
  "format.auto": "auto(原生,否则 mrkl)",
  "model": "模型",
  "provider": "提供方",
  "provider.scripted": "脚本(离线,无需密钥)",
  "provider.openai": "OpenAI 兼容",
  "provider.ollama": "Ollama(本地)",
  "provider.anthropic": "Anthropic",
  "baseUrl": "Base URL",
  "modelName": "模型名称",
  "apiKey": "API 密钥",
  "apiKey.placeholder": "只保存在本标签页的内存中",
  "remember": "在此设备上记住",
  "remember.warning": "以明文保存在此浏览器(localStorage)中:能使用此浏览器配置的人或本网站上的脚本都能读取。",
  "test": "测试连接",
  "test.running": "测试中……",
  "test.ok": "已连接:",
  "test.firstToken": "首个 token",
  "test.total": "总计",
  "test.streamed": "流式",
  "test.notStreamed": "非流式",
  "cors.hint": "页面直接从你的浏览器调用提供方。本地服务器必须允许跨域:Ollama 需要设置 OLLAMA_ORIGINS=\"*\"(或本页面的来源)。",
  "card.switch": "切换格式:",
  "timing.firstToken": "首个 token",
  "stat.tokens": "Token(输入 / 输出)",
  "tagline": "浏览器里的 ReAct 智能体：思考 → 行动 → 观察",
  "scenario": "场景",
  "task": "任务",
  "task.placeholder": "问一个智能体可以查找或计算的问题……",
  "format": "格式",
  "format.mrkl": "mrkl（LangChain）",
  "format.paper": "paper（ReAct 论文）",
  "format.help": "mrkl：Thought / Action / Action Input / Final Answer。paper：Thought 1 / Action 1: Tool[input] / Finish[answer]。",
  "language": "语言",
  "maxSteps": "最大步数",
  "speed": "速度",
  "speed.0": "即时",
  "speed.10": "快",
  "speed.30": "正常",
  "speed.80": "慢",
  "speed.200": "很慢",
  "run": "运行",
  "stop": "停止",
  "export": "导出 JSON",
  "import": "导入",
  "share": "分享",
  "settings": "设置",
  "empty.title": "看循环如何思考。",
  "empty.body": "选择一个场景并点击“运行”。每一步先流式显示模型的输出，再拆分为思考、行动和工具返回的观察，直到给出答案。",
  "card.task": "任务",
  "card.thought": "思考",
  "card.action": "行动",
  "card.observation": "观察",
  "card.answer": "答案",
  "card.repair": "无效调用 → 修复观察",
  "card.retry": "无效调用 → 已重试",
  "legend.repair": "无效调用 → 修复",
  "card.note": "备注",
  "card.stop": "已停止",
  "card.raw": "模型原始输出",
  "card.streaming": "模型正在输出……",
  "card.tool": "工具",
  "card.why": "原因",
  "step": "第",
  "meta.model": "模型",
  "meta.format": "格式",
  "meta.lang": "语言",
  "timing.model": "模型",
  "timing.tool": "工具",
  "usage.tokens": "词元",
  "stat.n_calls": "模型调用",
  "stat.n_badcalls": "无效调用",
  "stat.steps": "步数",
  "stat.elapsed": "用时",
  "stat.stop": "结束",
  "reason.answer": "已回答",
  "reason.max_steps": "达到最大步数",
  "reason.aborted": "已中止",
  "reason.error": "出错",
  "reason.running": "运行中……",
  "reason.idle": "–",
  "status.loading": "正在加载智能体……",
  "status.ready": "就绪。",
  "status.linkCopied": "分享链接已复制到剪贴板（地址栏中也有）。",
  "status.linkReady": "分享链接已写入地址栏。",
  "status.imported": "已导入",
  "status.exported": "已保存 trajectory.json",
  "status.nothingToExport": "还没有可导出的内容：请先运行任务或导入轨迹。",
  "error.import": "无法导入该文件：",
  "error.load": "无法从 pkg/tao_agent.js 加载智能体。请先运行 `make build` 构建。",
  "error.run": "运行失败：",
  "footer": "使用脚本模型离线运行：无需密钥，无需服务器。模型和工具的文本始终作为纯文本显示，绝不作为 HTML。",
  "footer.export": "轨迹可导出为 JSON 并重新导入。",
};

const DICTIONARIES = { en, zh };

let current = "en";

/** Sets the page's language ("en" or "zh"); unknown values fall back to English. */
export function setLang(lang) {
  current = LANGS.includes(lang) ? lang : "en";
  return current;
}

/** The page's current language. */
export function lang() {
  return current;
}

/** The text for `key` in the current language (or English, or the key itself). */
export function t(key) {
  return DICTIONARIES[current][key] ?? en[key] ?? key;
}

/** "Step 3" in English, "第 3 步" in Chinese. */
export function stepLabel(n) {
  return current === "zh" ? `第 ${n} 步` : `Step ${n}`;
}

/** Fills every `data-i18n*` element under `root` with the current language's words. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const attr of ["placeholder", "title", "aria-label"]) {
    const data = "data-i18n-" + attr;
    for (const el of root.querySelectorAll(`[${data}]`)) el.setAttribute(attr, t(el.getAttribute(data)));
  }
  if (root === document) {
    document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  }
}
