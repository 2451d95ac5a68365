/**
 * The row of each key of a vector table, looked up in the table's own key bytes (UTF-8, joined by
 * spaces): an open-addressing hash table of row numbers over the keys' byte offsets. Reading the word
 * vectors' 80,000 keys into a Map made 80,000 strings (about 100 ms and several MiB on a first search);
 * this makes two typed arrays in one pass over the bytes and no string at all.
 */
export interface KeyIndex {
  /** How many keys the table holds. */
  readonly size: number;
  /** The row of `key`, or undefined when the table lacks it. */
  get(key: string): number | undefined;
  /** Every key, in row order (decoded one by one: for checks, not for lookups). */
  keys(): IterableIterator<string>;
}

const SPACE = 0x20;
const EMPTY = -1;

/** 32-bit FNV-1a of `bytes[start, end)`. */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash >>> 0;
}

/**
 * Indexes the keys of `text` (keys joined by single spaces); returns undefined when their number is not
 * `count`, so the caller can refuse the table. A key repeated keeps its last row, as a Map would.
 */
export function indexKeys(text: Uint8Array, count: number): KeyIndex | undefined {
  // offsets[row] is where the row's key starts; offsets[count] is one past the last key's space.
  const offsets = new Uint32Array(count + 1);
  let row = 0;
  offsets[0] = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== SPACE) continue;
    row += 1;
    if (row > count) return undefined;
    offsets[row] = i + 1;
  }
  if (count === 0 ? text.length !== 0 : row !== count - 1) return undefined;
  offsets[count] = text.length + 1;
  const endOf = (r: number) => (offsets[r + 1] as number) - 1;
  // At most half full, so a probe finds an empty slot within a few steps.
  let capacity = 1;
  while (capacity < count * 2) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Int32Array(capacity).fill(EMPTY);
  const sameKey = (r: number, bytes: Uint8Array, start: number, end: number) => {
    const at = offsets[r] as number;
    if (endOf(r) - at !== end - start) return false;
    for (let i = 0; i < end - start; i++) if (text[at + i] !== bytes[start + i]) return false;
    return true;
  };
  for (let r = 0; r < count; r++) {
    const start = offsets[r] as number;
    const end = endOf(r);
    let slot = hashOf(text, start, end) & mask;
    while (slots[slot] !== EMPTY && !sameKey(slots[slot] as number, text, start, end))
      slot = (slot + 1) & mask;
    slots[slot] = r;
  }

  const encoder = new TextEncoder();
  let scratch = new Uint8Array(64);
  return {
    size: count,
    get(key) {
      if (scratch.length < key.length * 3) scratch = new Uint8Array(key.length * 3);
      const { written } = encoder.encodeInto(key, scratch);
      let slot = hashOf(scratch, 0, written) & mask;
      for (;;) {
        const found = slots[slot] as number;
        if (found === EMPTY) return undefined;
        if (sameKey(found, scratch, 0, written)) return found;
        slot = (slot + 1) & mask;
      }
    },
    *keys() {
      const decoder = new TextDecoder();
      for (let r = 0; r < count; r++) yield decoder.decode(text.subarray(offsets[r], endOf(r)));
    },
  };
}
