// The writes of one collection of the on-disk store (lmdb-store.ts) that LMDB has not committed yet, as a
// query must see them. A processor reads the collection it writes row after row (the newest result, is
// there one already): waiting for a commit per row made a large upload 30x slower (issue 30, bench:large),
// so a query walks LMDB's committed index entries and this overlay's entries together, in index order,
// passing over the committed entries of every record the overlay holds (their committed place may be stale).
//
// Each index keeps the overlay's entry keys sorted (the same byte-ordered keys LMDB holds), so a walk starts
// by a binary search, and a write moves one key per index.
import type { StoredRecord } from './collection.js';

export interface OverlayEntry {
  /** The record as written; undefined when deleted. */
  record: StoredRecord | undefined;
  /** The batch (one LMDB transaction) that carries the latest write of this record. */
  batch: number;
  /** The record's entry key in each index (none when deleted). */
  keys: Map<string, Buffer>;
}

/** One index entry of an uncommitted record, in a walk's order. */
export interface OverlaySlot {
  key: Buffer;
  id: string;
  record: StoredRecord;
}

/** The first position whose key is not below `key` (or, with `after`, above it). */
function boundOf(slots: readonly OverlaySlot[], key: Buffer, after: boolean): number {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const order = Buffer.compare(slots[mid].key, key);
    if (order < 0 || (after && order === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class CollectionOverlay {
  private readonly entries = new Map<string, OverlayEntry>();
  private readonly sorted = new Map<string, OverlaySlot[]>();

  get size(): number {
    return this.entries.size;
  }

  get(id: string): OverlayEntry | undefined {
    return this.entries.get(id);
  }

  /** Records a write: the record's previous entry keys leave each index, its new ones enter. */
  set(id: string, record: StoredRecord | undefined, batch: number, keys: Map<string, Buffer>): void {
    const previous = this.entries.get(id);
    if (previous) for (const [index, key] of previous.keys) this.remove(index, key);
    this.entries.set(id, { record, batch, keys });
    if (record) for (const [index, key] of keys) this.insert(index, { key, id, record });
  }

  /** Starts keeping an index declared while records wait for their commit. */
  addIndex(index: string, keyOf: (record: StoredRecord) => Buffer): void {
    const slots: OverlaySlot[] = [];
    for (const [id, entry] of this.entries) {
      if (!entry.record) continue;
      const key = keyOf(entry.record);
      entry.keys.set(index, key);
      slots.push({ key, id, record: entry.record });
    }
    this.sorted.set(index, slots.sort((a, b) => Buffer.compare(a.key, b.key)));
  }

  /** Lets go of the records `batch` committed, unless a later write (a later batch) replaced them. */
  release(ids: Iterable<string>, batch: number): void {
    let released = false;
    for (const id of ids) {
      if (this.entries.get(id)?.batch !== batch) continue;
      this.entries.delete(id);
      released = true;
    }
    if (!released) return;
    // One pass per index for the whole batch, not one search per record.
    for (const [index, slots] of this.sorted) this.sorted.set(index, slots.filter((slot) => this.entries.has(slot.id)));
  }

  /** The entries of `index` within [start, end), past `from` in the walk's direction, in walking order. */
  range(index: string, start: Buffer, end: Buffer, from: Buffer | undefined, reverse: boolean): OverlaySlot[] {
    const slots = this.sorted.get(index);
    if (!slots?.length) return [];
    if (reverse) return slots.slice(boundOf(slots, start, false), boundOf(slots, from ?? end, false)).reverse();
    return slots.slice(from ? boundOf(slots, from, true) : boundOf(slots, start, false), boundOf(slots, end, false));
  }

  clear(): void {
    this.entries.clear();
    for (const index of this.sorted.keys()) this.sorted.set(index, []);
  }

  private insert(index: string, slot: OverlaySlot): void {
    let slots = this.sorted.get(index);
    if (!slots) this.sorted.set(index, (slots = []));
    slots.splice(boundOf(slots, slot.key, false), 0, slot);
  }

  private remove(index: string, key: Buffer): void {
    const slots = this.sorted.get(index);
    if (!slots) return;
    const at = boundOf(slots, key, false);
    if (at < slots.length && slots[at].key.equals(key)) slots.splice(at, 1);
  }
}
