/** How much a bounded store holds: at most `maxEntries` entries, their sizes adding up to at most `maxBytes`. */
export interface StoreBounds {
  maxEntries: number;
  maxBytes: number;
}

/**
 * Entries oldest first, bounded by count and by bytes (each entry's size as its owner counts it):
 * past either bound the oldest go first. An entry can have a key, to be found, re-sized or written
 * again by it; writing a key again makes its entry the newest. An entry larger than all of
 * `maxBytes` is not kept, rather than emptying the store for it (and a key written so is gone, its
 * previous entry being stale). Every in-memory record the emulator keeps for a caller (the recorded
 * requests, the console's log, the question history, conversations, tasks) is one of these, so they
 * all forget by this one rule.
 */
export class BoundedStore<K extends string | number, V extends object> {
  // Slots oldest first from `head` to `end`; a removed entry leaves an empty slot until the store
  // is compacted. Arrays rather than a Map in insertion order: V8 makes a Map used as a queue slower
  // with every delete at its front, and the recorded requests take an entry on every API request.
  // The arrays never shrink (slots past `end` are empty), so a full store adds without allocating.
  private slots: (V | undefined)[] = [];
  private sizes: number[] = [];
  private keys: (K | undefined)[] = [];
  /** Where each keyed entry's slot is. */
  private readonly slotOf = new Map<K, number>();
  private head = 0;
  private end = 0;
  private live = 0;
  private total = 0;

  constructor(private readonly bounds: StoreBounds) {}

  /** Keeps `value` as the newest entry, without a key; false when it alone is larger than the store. */
  add(value: V, bytes: number): boolean {
    return this.append(undefined, value, bytes);
  }

  /** Keeps `value` under `key` as the newest entry; false when it alone is larger than the store. */
  set(key: K, value: V, bytes: number): boolean {
    this.delete(key);
    return this.append(key, value, bytes);
  }

  /**
   * Counts a kept entry's size again (an entry that grows after it was added), in its place; past
   * the bounds the oldest go, the entry itself when it is now larger than the whole store. Returns
   * whether it is still kept.
   */
  resize(key: K, bytes: number): boolean {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return false;
    if (bytes > this.bounds.maxBytes) {
      this.remove(slot);
      this.compact();
      return false;
    }
    this.total += bytes - (this.sizes[slot] ?? 0);
    this.sizes[slot] = bytes;
    this.evict();
    return this.slotOf.has(key);
  }

  get(key: K): V | undefined {
    const slot = this.slotOf.get(key);
    return slot === undefined ? undefined : this.slots[slot];
  }

  has(key: K): boolean {
    return this.slotOf.has(key);
  }

  delete(key: K): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    this.remove(slot);
    this.compact();
  }

  clear(): void {
    this.slots = [];
    this.sizes = [];
    this.keys = [];
    this.slotOf.clear();
    this.head = 0;
    this.end = 0;
    this.live = 0;
    this.total = 0;
  }

  /** The kept entries, oldest first. */
  values(): V[] {
    const values: V[] = [];
    for (let i = this.head; i < this.end; i++) {
      const value = this.slots[i];
      if (value !== undefined) values.push(value);
    }
    return values;
  }

  /** The kept keyed entries with their keys, oldest first. */
  entries(): [K, V][] {
    const entries: [K, V][] = [];
    for (let i = this.head; i < this.end; i++) {
      const key = this.keys[i];
      const value = this.slots[i];
      if (key !== undefined && value !== undefined) entries.push([key, value]);
    }
    return entries;
  }

  get size(): number {
    return this.live;
  }

  /** The kept entries' sizes together. */
  get bytes(): number {
    return this.total;
  }

  private append(key: K | undefined, value: V, bytes: number): boolean {
    if (bytes > this.bounds.maxBytes) return false;
    const slot = this.end;
    if (key !== undefined) this.slotOf.set(key, slot);
    this.slots[slot] = value;
    this.sizes[slot] = bytes;
    this.keys[slot] = key;
    this.end = slot + 1;
    this.live += 1;
    this.total += bytes;
    this.evict();
    return true;
  }

  private remove(slot: number): void {
    const key = this.keys[slot];
    if (key !== undefined) this.slotOf.delete(key);
    this.total -= this.sizes[slot] ?? 0;
    this.slots[slot] = undefined;
    this.sizes[slot] = 0;
    this.keys[slot] = undefined;
    this.live -= 1;
  }

  private evict(): void {
    const { maxEntries, maxBytes } = this.bounds;
    while ((this.live > maxEntries || this.total > maxBytes) && this.head < this.end) {
      if (this.slots[this.head] !== undefined) this.remove(this.head);
      this.head += 1;
    }
    this.compact();
  }

  /** Moves the kept entries to the front, in place, once the empty slots outnumber them. */
  private compact(): void {
    const empty = this.end - this.live;
    if (empty <= 64 || empty <= this.live) return;
    let to = 0;
    for (let from = this.head; from < this.end; from++) {
      const value = this.slots[from];
      if (value === undefined) continue;
      const key = this.keys[from];
      this.slots[to] = value;
      this.sizes[to] = this.sizes[from] ?? 0;
      this.keys[to] = key;
      if (key !== undefined && to !== from) this.slotOf.set(key, to);
      to += 1;
    }
    // The slots left behind let go of what they held; the arrays keep their length.
    this.slots.fill(undefined, to, this.end);
    this.keys.fill(undefined, to, this.end);
    this.head = 0;
    this.end = to;
  }
}
