
// ----- the package's entry (tao.js): the core's functions and classes, and the elements -----
// (The declarations above are the core's shared types, from src/bindings/types.d.ts.)

/** A ReAct agent. Free it with `free()` when done (each run makes its own loop from the settings). */
export declare class Agent {
  /** Throws an Error (`kind: "config"`) naming any setting it cannot use, and listing the valid ones. */
  constructor(config: AgentConfig);
  /**
   * Adds a tool implemented in JavaScript. `fn` receives the input checked against
   * `spec.parameters` (or, without `parameters`, the input as the model wrote it) and returns the
   * observation: a string, `{observation, fuel}`, or a value shown as JSON; a thrown error becomes
   * an observation. Name it in `tools` to enable it.
   */
  registerTool<I = any>(spec: ToolSpecInit, fn: ToolFunction<I>): void;
  /** Runs `task`; resolves with the trajectory, also when stopped or when the model fails (`stop.reason`). */
  run(task: string, options?: RunOptions): Promise<Trajectory>;
  /** A new trajectory for `task`, paused before its first model call. */
  start(task: string): Trajectory;
  /** Advances a trajectory to its next pause point (before a model call or a tool call). */
  next(trajectory: Trajectory, options?: RunOptions): Promise<Trajectory>;
  /** Goes on from any trajectory (paused, imported, edited, forked, or ended) until it ends or `pause` fires. */
  resume(trajectory: Trajectory, options?: RunOptions): Promise<Trajectory>;
  /** What the model receives at the first step of `task`. */
  prompt(task: string): { messages: TaoMessage[]; tools: ToolSpecInit[] };
  /** Every tool the agent has, as the model is told of it (with `needsApproval`): the MCP servers' are listed first if no run has yet. */
  tools(): Promise<ToolSpecInit[]>;
  /** The exact request of step `index` (1-based; by default the next step's). */
  promptAt(trajectory: Trajectory, index?: number): { messages: TaoMessage[]; tools: ToolSpecInit[] };
  /** `trajectory` as training data: each step's exact prompt (as `promptAt`), reply, action and observation; `extra`'s fields (reward, gold, em, f1, …) added last. */
  trainingRecord(trajectory: Trajectory, extra?: Record<string, unknown>): TrainingRecord;
  /** Releases the agent's memory in the wasm. */
  free(): void;
}

/** The offline scenarios loaded (none before `fetchOfflineData` or `loadOfflineData`), in `lang` ("en" by default). */
export declare function scenarios(lang?: "en" | "zh"): ScenarioInfo[];
/**
 * Loads the offline data the wasm does not carry, given as the text of the package's
 * `data/scenarios.json` and `data/knowledge.json` (in Node: read from the disk). Needed before an
 * `Agent` with a `scenario`, or with the built-in `search`/`lookup` and no `wiki`.
 * Throws an Error (`kind: "config"`) on a malformed file.
 */
export declare function loadOfflineData(data: OfflineData): void;
/**
 * Fetches the package's `data/<name>.json` for each of `names` (by default all three: the
 * scenarios, the offline search's pages and the Chinese prompts; each once, and the wasm too)
 * and loads them with `loadOfflineData`. `<tao-agent>` calls it itself when a run needs them.
 */
export declare function fetchOfflineData(names?: ("scenarios" | "knowledge" | "zh")[]): Promise<void>;
/** The providers over HTTP, with their default base URLs and example models. */
export declare function providers(): ProviderInfo[];
/** The tools built into the core: "search", "lookup", "calculator", "search_docs". */
export declare function builtinTools(): string[];
/** Reads a trajectory file's text; throws a clear Error on a malformed or newer file. */
export declare function parseTrajectory(text: string): Trajectory;
/** Sends one short request to the provider of `config` and reports what came back. */
export declare function testConnection(config: AgentOptions & { provider: "openai" | "ollama" | "anthropic" }): Promise<ConnectionReport>;
/** tao's version. */
export declare function version(): string;
/** The ReAct paper's score: HotpotQA exact match and F1, or FEVER label accuracy (in both fields); no prediction scores 0. */
export declare function scoreAnswer(dataset: "hotpotqa" | "fever", prediction: string | null | undefined, gold: string): Promise<Score>;
/** The CoT-SC majority answer (answers compared after the paper's normalisation); null when no sample answered. */
export declare function vote(answers: (string | null | undefined)[]): Promise<Vote | null>;
/** The first `n` indices of the paper's sample: Python's `random.Random(233).shuffle(range(total))`. */
export declare function paperSample(total: number, n: number): Promise<number[]>;

/** Where `init` finds the wasm: by default `tao_agent_bg.wasm` next to `tao.js`. */
export type InitInput = string | Request | URL | Response | BufferSource | WasmModule;
/**
 * Loads the wasm core (once; later calls resolve at once). `<tao-agent>` calls it itself;
 * call it before using `Agent` or the functions. From another origin, the host of the wasm must
 * send `Access-Control-Allow-Origin` (and `Content-Type: application/wasm` for streaming compilation).
 */
export declare function init(module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<unknown>;
export default init;
/** Loads the wasm synchronously from its bytes or a compiled module. */
export declare function initSync(module: { module: BufferSource | WasmModule } | BufferSource | WasmModule): unknown;

/** The agent events, by their DOM event names on `<tao-agent>` (`tao-<type>`). */
export type TaoAgentEventMap = {
  [E in TaoEvent as `tao-${E["type"]}`]: CustomEvent<E>;
} & {
  /** The run ended: its trajectory (also when stopped or failed). */
  "tao-done": CustomEvent<Trajectory>;
  /** A run could not start (a bad setting, an unknown scenario, an empty task: `kind` one of tao's) or the element could not load its wasm or data (`kind: "load"`): its message and kind. */
  "tao-error": CustomEvent<{ message: string; kind: TaoErrorKind | "load" }>;
};

/** `<tao-agent>`: an agent with a task box, Run and Stop, drawing its trajectory (see api.md). Properties set before the element is defined are kept. */
export declare class TaoAgent extends ElementBase {
  /** `light`, `dark`, or `auto` (the reader's system, the default); reflects the `theme` attribute. */
  theme: "light" | "dark" | "auto";
  /** The API key: memory only, never reflected to an attribute, never in events or trajectories. */
  apiKey: string;
  /** The provider's model name (the `model` attribute), or a JS function that plays the model. */
  get model(): string | JsModelFunction | null;
  set model(value: string | JsModelFunction | null);
  /** Replies for the offline scripted model to replay, in order. */
  get replies(): string[] | null;
  set replies(value: readonly string[] | null);
  /** Any other `Agent` settings (`temperature`, `maxTokens`, `retries`, `delayMs`, …). */
  options: Partial<AgentOptions>;
  /** MCP servers (`Agent`'s `mcp` setting; a token in `headers` only this way), or the `mcp` attribute's URLs. */
  get mcp(): McpServer[];
  set mcp(value: readonly (string | McpServer)[] | null);
  /** The last finished run's trajectory, or null. */
  readonly trajectory: Trajectory | null;
  /** Resolves once the wasm (and, for a `scenario`, the offline data) is loaded. */
  readonly ready: Promise<void>;
  /** Adds a JS tool for the next runs (as `Agent.registerTool`); name it in the `tools` attribute. */
  registerTool<I = any>(spec: ToolSpecInit, fn: ToolFunction<I>): void;
  /** Runs `task` (default: the task box's text); resolves with the trajectory. */
  run(task?: string): Promise<Trajectory>;
  /** Stops the run in flight. */
  stop(): void;
  /** The settings the next run's `Agent` is made from. */
  config(): AgentConfig;
  addEventListener<K extends keyof TaoAgentEventMap>(type: K, listener: (this: TaoAgent, ev: TaoAgentEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener<K extends keyof HTMLElementEventMap>(type: K, listener: (this: TaoAgent, ev: HTMLElementEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

/** `<tao-trajectory>`: draws a trajectory, for pages that drive `Agent` themselves. */
export declare class TaoTrajectory extends ElementBase {
  /** The trajectory drawn last, or null. */
  readonly trajectory: Trajectory | null;
  /** Starts a live view of a new run of `task`. */
  begin(task: string, meta?: { model?: string; format?: string; lang?: string }): void;
  /** Takes one event of a run (`onEvent`) and updates the live view. */
  handleEvent(event: TaoEvent): void;
  /** Draws a whole trajectory (a finished run, or an imported file); `live: true` leaves out the Edit buttons. */
  render(trajectory: Trajectory, options?: { live?: boolean }): void;
  /** Asks the reader to approve a tool call (for `RunOptions.approve`). */
  askApproval(request: { tool: string; input: unknown }, signal?: AbortSignal): Promise<boolean>;
  /** Shows the prompt and a reply box: the reader plays the model (a `JsModelFunction`'s body). */
  askReply(messages: TaoMessage[], signal?: AbortSignal): Promise<string>;
  /** The welcome text shown before anything has run. */
  showEmpty(): void;
}

declare global {
  // Declared empty, they merge with the DOM library's own where a project has it, and stand in
  // for them where it has not (Node): only interfaces, not classes (below), can be merged so.
  interface HTMLElementEventMap {}
  interface AddEventListenerOptions {}
  interface CustomEvent<T = any> {}
  interface HTMLElementTagNameMap {
    "tao-agent": TaoAgent;
    "tao-trajectory": TaoTrajectory;
  }
}

// ----- the browser's classes, where the project has them -----
// A project without the DOM library (Node, `"lib": ["es2022"]`) has none of the browser's names
// this file uses. The classes' are read from `globalThis`, where the DOM library (or Node's own
// types, for `AbortSignal`, `URL`, `Response`) declares them, with a plain stand-in where nothing
// does: so this file type-checks in both. Inside this file these names stand for the global ones;
// `export {}` keeps them out of the package's exports.
type Global<Name extends string, Else> = typeof globalThis extends { [K in Name]: { prototype: infer T } } ? T : Else;
type AbortSignal = Global<"AbortSignal", { readonly aborted: boolean; readonly reason: unknown }>;
type URL = Global<"URL", never>;
type Request = Global<"Request", never>;
type Response = Global<"Response", never>;
type Event = Global<"Event", { readonly type: string }>;
type EventListenerOrEventListenerObject = ((event: Event) => void) | { handleEvent(event: Event): void };
type BufferSource = ArrayBufferView | ArrayBuffer;
type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer T } } } ? T : never;
/** `HTMLElement`, or a plain class where there is no DOM: as the elements' own code says (`ElementBase`). */
declare const ElementBase: typeof globalThis extends { HTMLElement: infer C } ? C : new () => object;
export {};
