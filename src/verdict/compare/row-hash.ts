import {
  KIND_BOOLEAN,
  KIND_NAN,
  KIND_NUMBER,
  KIND_TEMPORAL,
  KIND_TEXT,
  type NormalizedCells,
  textHash,
} from './normalized-cells.js';

/*
 * Row hashes for multiset matching. Equal rows hash equally because equal values are stored
 * identically (same kind, same double, same string and string hash, same digits kept beside
 * a double: exact keys, sub-nanosecond fractions). Those digits are hashed too, so distinct
 * big decimals that share a double do not all share one chain of the row index.
 */

const scratch = new Float64Array(1);
const words = new Uint32Array(scratch.buffer);

/** A 53-bit hash of row `row` of `cells` (an integer below 2^53, exact as a double). */
export function rowHash(cells: NormalizedCells, row: number): number {
  const { kinds, primary, columnCount } = cells;
  let lane1 = 0;
  let lane2 = 0x5bd1e995;
  const rowStart = row * columnCount;
  for (let column = 0; column < columnCount; column++) {
    const cell = rowStart + column;
    const kind = kinds[cell]!;
    let value: number;
    if (kind === KIND_NUMBER || kind === KIND_TEMPORAL) {
      scratch[0] = primary[cell]!;
      value = words[0]! ^ Math.imul(words[1]!, 0x27d4eb2f) ^ kind;
      if (kind === KIND_TEMPORAL) value = Math.imul(value ^ cells.secondaryAt(row, column), 0x165667b1);
      const digits = cells.text[column]?.[row];
      if (digits !== undefined) value = Math.imul(value ^ textHash(digits), 0x2c1b3c6d);
    } else if (kind === KIND_TEXT) {
      // The string's own hash, stored beside it when it was normalised.
      value = primary[cell]! | 0;
    } else if (kind === KIND_BOOLEAN) {
      value = primary[cell] === 1 ? 0x2f8a6b1d : 0x6c62272e;
    } else {
      value = kind === KIND_NAN ? 0x7ff80000 : 0x1b873593;
    }
    value ^= Math.imul(column + 1, 0x9e3779b1);
    lane1 = Math.imul(((lane1 ^ value) << 13) | ((lane1 ^ value) >>> 19), 0x01000193);
    lane2 = Math.imul(((lane2 + value) << 7) | ((lane2 + value) >>> 25), 0x85ebca6b) ^ 0x5bd1e995;
  }
  return finalize(lane1) * 2 ** 21 + (finalize(lane2) >>> 11);
}

function finalize(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
