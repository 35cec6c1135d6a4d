// The JS half of `to_js` (values.rs): builds the value that a tape describes (`Tape` in
// src/to_json.rs), the same value JSON.parse would make of the value's JSON text, without
// writing or parsing any text. The tape is read in place, in the wasm's memory.

let memory, bytes, words, floats;
/** tao's own strings (its objects' keys, its names), by address: each is decoded once. */
const names = new Map();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
/** Where the reading is: the next operation, the tape's text, the next UTF-16 unit of it, the next float. */
let at = 0, text = "", cut = 0, next = 0;

export function tao_memory(wasmMemory) {
  memory = wasmMemory;
}

/** The value on the tape whose operations start at `ops` (strings and floats in the others). */
export function tao_value(ops, textAt, textLength, numbers) {
  if (bytes === undefined || bytes.byteLength === 0) {
    // First use, or the memory grew (its old buffer is then detached, and empty).
    bytes = new Uint8Array(memory.buffer);
    words = new Uint32Array(memory.buffer);
    floats = new Float64Array(memory.buffer);
  }
  at = ops >>> 2;
  text = textLength === 0 ? "" : decode(textAt, textLength);
  cut = 0;
  next = numbers >>> 3;
  return value();
}

/** Calls `listener` with the value (an event); what it throws is not tao's concern. */
export function tao_emit(listener, ops, textAt, textLength, numbers) {
  const event = tao_value(ops, textAt, textLength, numbers);
  try {
    listener.call(null, event);
  } catch (_) {
    // The page's handler failing must not stop the agent.
  }
}

function decode(from, length) {
  // A short ASCII text is quicker to copy than to hand to the decoder.
  if (length <= 16) {
    let s = "";
    for (let i = from; i < from + length; i++) {
      if (bytes[i] > 127) return decoder.decode(bytes.subarray(from, from + length));
      s += String.fromCharCode(bytes[i]);
    }
    return s;
  }
  return decoder.decode(bytes.subarray(from, from + length));
}

function string(units) {
  const s = text.slice(cut, cut + units);
  cut += units;
  return s;
}

function value() {
  const op = words[at++];
  const n = op >>> 3;
  switch (op & 7) {
    case 0: return null;
    case 1: return n === 1;
    case 2: return n;
    case 3: return floats[next++];
    case 4: return string(n);
    case 5: {
      const object = {};
      for (let k = 0; k < n; k++) {
        const name = key();
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
  return undefined;
}

function key() {
  const op = words[at++];
  return (op & 7) === 7 ? named(op >>> 3) : string(op >>> 3); // tao's own key, or the data's
}

/** A string of tao's own (a key, a type's name): found by its address, decoded once. */
function named(length) {
  const address = words[at++];
  let name = names.get(address);
  if (name === undefined || name.length !== length) {
    name = decoder.decode(bytes.subarray(address, address + length));
    names.set(address, name);
  }
  return name;
}
