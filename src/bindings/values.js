// The JS half of values.rs: builds the value a tape describes (`Tape` in src/to_json.rs), the
// value JSON.parse would make of its JSON text, reading the tape in the wasm's memory.

let memory, bytes, words, floats;
const names = new Map(); // tao's own strings (keys, type names) by address, decoded once
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
let at, text, cut, next; // the next op, the tape's text, the next unit of it, the next float

export function tao_memory(wasmMemory) {
  memory = wasmMemory;
}

function view() {
  // (`length` rather than `byteLength`: the same here, and read two to three times quicker.)
  if (bytes === undefined || bytes.length === 0) {
    // First use, or the memory grew (which empties the old views).
    bytes = new Uint8Array(memory.buffer);
    words = new Uint32Array(memory.buffer);
    floats = new Float64Array(memory.buffer);
  }
}

export function tao_value(ops, textAt, textLength, numbers) {
  view();
  at = ops >>> 2;
  text = decode(textAt, textLength);
  cut = 0;
  next = numbers >>> 3;
  return value();
}

/** Calls `listener` with the event of `kind` made from its fields (see values.rs's `emit`), key
 * for key as its JSON would be parsed; what the listener throws does not stop the agent. */
const texts = ["token", "thought", "answer", "reasoning", "note"];
export function tao_event(listener, kind, index, n, a, aLength, b, bLength, c, cLength, value, fuel) {
  // The k-th text field (a, b, c) is the slice of the string tao_text copied last when the
  // `16 << k` bit of `kind` says so, else the text where it lies in memory.
  const text = piece(kind & 16, a, aLength);
  let event;
  switch (kind & 15) {
    case 5: event = { type: "step", index }; break;
    case 6: event = { type: "call", index, n, retry: a === 1 }; break;
    case 7: event = { type: "action", index, call: n, tool: text, input: value === undefined ? piece(kind & 32, b, bLength) : value }; break;
    case 8: event = { type: "observation", index, call: n, text, fuel: fuel < 0 ? null : fuel, picture: value }; break;
    case 9: event = { type: "approval", index, call: n, tool: text, approved: b === 1 }; break;
    case 10: event = { type: "repair", index, call: n, why: text, message: piece(kind & 32, b, bLength) }; break;
    case 11: event = { type: "switch", index, from: text, to: piece(kind & 32, b, bLength), why: piece(kind & 64, c, cLength) }; break;
    case 12: event = { type: piece(kind & 64, c, cLength), after: index, covers: n, text, by_model: b === 1 }; break;
    case 13: event = { type: "stopped", reason: text, message: n === 1 ? piece(kind & 32, b, bLength) : null }; break;
    default: event = { type: texts[kind & 15], index, text };
  }
  try {
    listener.call(null, event);
  } catch (_) {}
}

// performance.now() where there is one (pages, workers, Node), else Date.now(); `performance`
// is looked up once (in Node it is a getter on the global).
const clock = typeof globalThis.performance?.now === "function" ? globalThis.performance : Date;

/** The text at `at` (see values.rs's `string`). */
export function tao_string(at, length) {
  view();
  return decode(at, length);
}

export function tao_now() {
  return clock.now();
}

/** A Promise resolved after `ms` milliseconds, or at once where there is no `setTimeout`. */
export function tao_sleep(ms) {
  return new Promise((resolve) => (typeof setTimeout === "function" ? setTimeout(resolve, ms) : resolve()));
}

const roles = ["system", "user", "assistant", "tool"]; // Role's variants, in order

const runOptions = ["onEvent", "signal", "pause", "approve"]; // values.rs's RunOption, in order

/** A run's option (see values.rs's `run_option`). */
export function tao_option(options, which) {
  if (options === null || (typeof options !== "object" && typeof options !== "function")) return undefined;
  try {
    return options[runOptions[which]];
  } catch (_) {
    return undefined;
  }
}

/** Adds the message `{role, content}` to `messages` (see values.rs's `push_message`). */
export function tao_push_message(messages, role, at, length) {
  view();
  messages.push({ role: roles[role], content: decode(at, length) });
}

/** A JS model's options: the object on the tape, then its `signal` and `onDelta`; with no
 * tape (`ops` 0), one stop sequence (the text) and no tools. */
export function tao_options(ops, textAt, textLength, numbers, signal, onDelta) {
  if (ops === 0) {
    view();
    return { stop: [decode(textAt, textLength)], tools: [], signal, onDelta };
  }
  const options = tao_value(ops, textAt, textLength, numbers);
  options.signal = signal;
  options.onDelta = onDelta;
  return options;
}

/** Waits for what a JS model returned, unless it is a string (see values.rs's `wait`). */
export function tao_wait(returned, onValue, onError) {
  if (typeof returned === "string") return false;
  Promise.resolve(returned).then(onValue, onError);
  return true;
}

const encoder = new TextEncoder();

let copied = ""; // the last string tao_text copied (see values.rs's `Copied`)

/** Copies `s` (a model's reply or streamed piece, a tool's answer) as UTF-8 into wasm memory,
 * and keeps it as `copied`; see values.rs's `append_text`. */
export function tao_text(s, to, room) {
  if (typeof s !== "string") return -1;
  copied = s;
  if (s.length * 3 > room) return -s.length * 3;
  view();
  // A short ASCII text is quicker copied unit by unit than handed to the encoder; a longer
  // one (a whole reply) is quicker encoded.
  const encode = () => encoder.encodeInto(s, bytes.subarray(to, to + room)).written;
  if (s.length > 32) return encode();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) return encode();
    bytes[to + i] = c;
  }
  return s.length;
}

/** A text field of an event: the slice of `copied` from `at` (see values.rs's `Copied`), or the
 * text at `at` in memory. (The memory's views are looked at only then: looking at them for
 * every event cost a listener about 0.3 µs a turn, bench/ab_listener.mjs.) */
function piece(sliced, at, length) {
  if (sliced) return copied.slice(at, at + length);
  if (length === 0) return "";
  view();
  return decode(at, length);
}

function decode(from, length) {
  // A short ASCII text is quicker copied than handed to the decoder.
  if (length > 16) return decoder.decode(bytes.subarray(from, from + length));
  let s = "";
  for (let i = from; i < from + length; i++) {
    if (bytes[i] > 127) return decoder.decode(bytes.subarray(from, from + length));
    s += String.fromCharCode(bytes[i]);
  }
  return s;
}

function value() {
  const op = words[at++], n = op >>> 3;
  switch (op & 7) {
    case 0: return null;
    case 1: return n === 1;
    case 2: return n;
    case 3: return n > 0 ? literals[n]() : floats[next++];
    case 4: return text.slice(cut, (cut += n));
    case 5: {
      const object = {};
      for (let k = 0; k < n; k++) {
        const key = words[at++], name = (key & 7) === 7 ? named(key >>> 3) : text.slice(cut, (cut += key >>> 3));
        const v = value();
        // JSON.parse makes "__proto__" a field like any other; an assignment would not.
        if (name === "__proto__") Object.defineProperty(object, name, { value: v, writable: true, enumerable: true, configurable: true });
        else object[name] = v;
      }
      return object;
    }
    case 6: {
      const array = [];
      for (let k = 0; k < n; k++) array.push(value());
      return array;
    }
    case 7: return named(n);
  }
}

// The structs JS makes most often (a FLOAT op with a number above 0): their fields' values
// follow, in the order of their `json_struct!` in src/trajectory.rs (the trajectory's: its
// `ToJson`). A literal is quicker
// than an object made key by key.
const literals = [
  ,
  () => ({ index: value(), thought: value(), action: value(), answer: value(), observation: value(), repair: value(), calls: value(), notes: value(), switch: value(), approved: value(), fuel: value(), ms: value(), tool_ms: value(), parallel: value(), picture: value() }),
  () => ({ raw: value(), retried: value(), usage: value(), ms: value(), first_token_ms: value(), saved_chars: value(), cut: value(), thinking: value() }),
  () => ({ tool: value(), input: value(), id: value() }),
  () => ({ format: value(), version: value(), task: value(), react_format: value(), lang: value(), model: value(), steps: value(), memos: value(), answer: value(), stop: value(), stats: value() }),
  () => ({ n_calls: value(), n_badcalls: value(), steps: value(), elapsed_ms: value(), prompt_tokens: value(), completion_tokens: value(), saved_chars: value() }),
  () => ({ reason: value(), message: value() }),
];

// The latest names, by a hash of their address, in front of the map.
const recentAt = new Int32Array(256), recent = new Array(256).fill("");

function named(length) {
  const address = words[at++], slot = (address ^ (address >>> 8)) & 255;
  let name = recent[slot];
  if (recentAt[slot] === address && name.length === length) return name;
  name = names.get(address);
  if (name === undefined || name.length !== length) names.set(address, (name = decoder.decode(bytes.subarray(address, address + length))));
  recentAt[slot] = address;
  return (recent[slot] = name);
}
