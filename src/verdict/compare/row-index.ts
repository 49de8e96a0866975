const NONE = -1;

// Row states, bits of one byte per row.
const TAKEN = 1;
/** Set only when no row before this one has its fingerprint: of the rows equal to it, it is first. */
const FIRST = 2;

/** The part of a row hash the index keys on: its low 32 bits. */
export function fingerprintOf(hash: number): number {
  return hash | 0;
}

type Equality = (probe: number, row: number) => boolean;

/**
 * The rows of one table, found by value: a chained hash table keyed on a 32-bit fingerprint of
 * each row's normalised cells (row-hash.ts: equal rows share it). Each chain lists its rows in
 * row order and taking always gives the first row left that equals the row looked up, so
 * duplicates pair up in row order: the rows left over are the last copies of each value.
 *
 * 13 to 17 bytes per row, none of them on the JavaScript heap. Walking a chain compares
 * fingerprints, kept apart from the rows, so a lookup reads no row but the one it takes.
 * Positional arguments on purpose: `take` and `takeRow` run once per row looked up.
 */
export class RowIndex {
  private readonly heads: Int32Array;
  /** Next row in the same chain, or NONE. Taken rows stay linked until a walk passes them. */
  private readonly next: Int32Array;
  private readonly fingerprints: Int32Array;
  private readonly states: Uint8Array;
  private readonly mask: number;
  /** Fingerprint and next row of each candidate, for `candidates`. */
  private scratch = new Int32Array(0);

  static build(options: {
    /** Per row, the fingerprint of its normalised cells (see `fingerprintOf`). */
    fingerprints: Int32Array;
  }): RowIndex {
    const index = new RowIndex(options.fingerprints);
    index.link();
    return index;
  }

  private constructor(fingerprints: Int32Array) {
    const rowCount = fingerprints.length;
    let buckets = 16;
    while (buckets < rowCount) buckets *= 2;
    this.mask = buckets - 1;
    this.heads = new Int32Array(buckets);
    this.next = new Int32Array(rowCount);
    this.fingerprints = fingerprints;
    this.states = new Uint8Array(rowCount).fill(FIRST);
  }

  private link(): void {
    const { heads, next, fingerprints, states, mask } = this;
    const rowCount = fingerprints.length;
    // Rows whose fingerprint shows up earlier are not first. A bit per fingerprint suffix
    // decides without walking chains: a suffix shared by different fingerprints only costs
    // the later row the `takeRow` shortcut, never a wrong answer. The bits borrow `heads`
    // (32 per row or more, so a few percent of rows at most share a suffix by chance), which
    // is linked next.
    const seen = heads;
    const suffixMask = Math.min(heads.length * 32, 2 ** 32) - 1;
    for (let row = 0; row < rowCount; row++) {
      const suffix = (fingerprints[row]! & suffixMask) >>> 0;
      const word = suffix >>> 5;
      const bit = 1 << (suffix & 31);
      if ((seen[word]! & bit) !== 0) states[row] = 0;
      seen[word] = seen[word]! | bit;
    }
    heads.fill(NONE);
    // Backwards, so that each chain is in row order. A loop of bare loads and stores, whose
    // cache misses overlap.
    for (let row = rowCount - 1; row >= 0; row--) {
      const bucket = fingerprints[row]! & mask;
      next[row] = heads[bucket]!;
      heads[bucket] = row;
    }
  }

  get rowCount(): number {
    return this.states.length;
  }

  /**
   * Takes `row` when it is what `take` would give without walking its chain: left, first with
   * `fingerprint`, and `equal(probe, row)`. For a guess at the row, such as the neighbour of
   * the last one taken when both tables list their rows in (reverse) order.
   */
  takeRow(row: number, fingerprint: number, probe: number, equal: Equality): boolean {
    if (this.states[row] !== FIRST || this.fingerprints[row] !== fingerprint || !equal(probe, row))
      return false;
    this.states[row] = TAKEN;
    return true;
  }

  /**
   * Takes and returns the first row left with `fingerprint` for which `equal(probe, row)`
   * holds; -1 when there is none.
   */
  take(fingerprint: number, probe: number, equal: Equality): number {
    const { heads, next, fingerprints, states } = this;
    const bucket = fingerprint & this.mask;
    let previous = NONE;
    let row = heads[bucket]!;
    while (row !== NONE) {
      const following = next[row]!;
      const taken = (states[row]! & TAKEN) !== 0;
      if (taken || (fingerprints[row] === fingerprint && equal(probe, row))) {
        // Unlinked when taken, or when a walk passes a row `takeRow` took.
        if (previous === NONE) heads[bucket] = following;
        else next[previous] = following;
        if (!taken) {
          states[row] = TAKEN;
          return row;
        }
      } else {
        previous = row;
      }
      row = following;
    }
    return NONE;
  }

  /**
   * The row each of `fingerprints[from…to)` likely takes (-1 for none) into `rows[0…)`: the
   * first row of its chain, or the second when the first has another fingerprint. Meant to run
   * ahead of the `take`s, so that they find their chains in the cache: each pass is a short
   * loop whose loads neither depend on each other nor decide a branch, so the processor keeps
   * many cache misses in flight instead of waiting for each.
   */
  candidates(fingerprints: Int32Array, from: number, to: number, rows: Int32Array): void {
    const { heads, next, mask } = this;
    const rowFingerprints = this.fingerprints;
    const count = to - from;
    if (this.scratch.length < 2 * count) this.scratch = new Int32Array(2 * count);
    const scratch = this.scratch;
    for (let position = 0; position < count; position++) {
      rows[position] = heads[fingerprints[from + position]! & mask]!;
    }
    for (let position = 0; position < count; position++) {
      const row = rows[position]!;
      if (row === NONE) continue;
      scratch[2 * position] = rowFingerprints[row]!;
      scratch[2 * position + 1] = next[row]!;
    }
    for (let position = 0; position < count; position++) {
      if (rows[position] !== NONE && scratch[2 * position] !== fingerprints[from + position]) {
        rows[position] = scratch[2 * position + 1]!;
      }
    }
  }

  /** The rows never taken, in row order. */
  remaining(): number[] {
    const rows: number[] = [];
    const states = this.states;
    for (let row = 0; row < states.length; row++) if ((states[row]! & TAKEN) === 0) rows.push(row);
    return rows;
  }
}
