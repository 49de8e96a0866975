import { describe, expect, it } from 'vitest';
import { RowIndex } from './row-index.js';

/**
 * An index over rows given as values, fingerprinted by `fingerprint` (the value itself unless
 * a test forces collisions); `equal` compares a probe value with a row's.
 */
function indexOf(values: string[], options: { fingerprint?: (value: string) => number } = {}) {
  const fingerprint = options.fingerprint ?? ((value: string) => value.charCodeAt(0) * 31 + value.length);
  const index = RowIndex.build({ fingerprints: Int32Array.from(values, fingerprint) });
  const probes: string[] = [];
  const equal = (probe: number, row: number) => probes[probe] === values[row];
  const take = (value: string) => {
    probes.push(value);
    return index.take(fingerprint(value), probes.length - 1, equal);
  };
  const takeRow = (row: number, value: string) => {
    probes.push(value);
    return index.takeRow(row, fingerprint(value), probes.length - 1, equal);
  };
  return { index, take, takeRow };
}

describe('RowIndex', () => {
  it('takes duplicates in row order and leaves the last copies', () => {
    const { index, take } = indexOf(['a', 'b', 'a', 'c', 'a', 'b']);
    expect([take('a'), take('b'), take('a'), take('x')]).toEqual([0, 1, 2, -1]);
    expect(index.remaining()).toEqual([3, 4, 5]);
  });

  it('finds rows among others sharing their fingerprint', () => {
    const { index, take } = indexOf(['ab', 'cd', 'ef', 'cd'], { fingerprint: () => 7 });
    expect([take('ef'), take('cd'), take('cd'), take('cd')]).toEqual([2, 1, 3, -1]);
    expect(index.remaining()).toEqual([0]);
  });

  it('takes a row directly only when a lookup would give that row', () => {
    const { index, take, takeRow } = indexOf(['a', 'b', 'a', 'c']);
    // Row 2 equals the probe, but row 0 comes first with that value.
    expect(takeRow(2, 'a')).toBe(false);
    expect(takeRow(1, 'x')).toBe(false);
    expect(takeRow(1, 'b')).toBe(true);
    expect(takeRow(1, 'b')).toBe(false);
    // A lookup passes over the row taken directly.
    expect([take('a'), take('a'), take('b'), take('c')]).toEqual([0, 2, -1, 3]);
    expect(index.remaining()).toEqual([]);
  });

  it('takes no row directly when an earlier row shares its fingerprint', () => {
    const { take, takeRow } = indexOf(['ab', 'cd', 'ab'], { fingerprint: () => 7 });
    expect(takeRow(1, 'cd')).toBe(false);
    expect(take('cd')).toBe(1);
  });

  it('guesses the row each lookup takes', () => {
    const values = ['a', 'b', 'a', 'c'];
    const fingerprint = (value: string) => value.charCodeAt(0);
    const { index } = indexOf(values, { fingerprint });
    const rows = new Int32Array(4);
    index.candidates(Int32Array.from(['x', 'b', 'a', 'c'], fingerprint), 0, 4, rows);
    expect([...rows]).toEqual([-1, 1, 0, 3]);
  });
});
