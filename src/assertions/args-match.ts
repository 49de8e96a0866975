/**
 * True when `expected` (the `args` of an assertion) is satisfied by `actual` (a tool call's
 * arguments): mappings match as subsets, recursively, so an assertion only pins the keys it
 * names; lists and scalars must be equal. Equality is strict: the string '5' never equals the
 * number 5, and `true` never equals 1, because a model that sent the wrong type made a
 * different call.
 */
export function argsMatch(expected: unknown, actual: unknown): boolean {
  if (isMapping(expected)) {
    if (!isMapping(actual)) return false;
    return Object.keys(expected).every(
      (key) => Object.hasOwn(actual, key) && argsMatch(expected[key], actual[key]),
    );
  }
  return deepEqual(expected, actual);
}

/** Exact structural equality: inside a list, a mapping must have the same keys, not a subset. */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => deepEqual(item, right[index]));
  }
  if (isMapping(left) || isMapping(right)) {
    if (!isMapping(left) || !isMapping(right)) return false;
    const keys = Object.keys(left);
    if (keys.length !== Object.keys(right).length) return false;
    return keys.every((key) => Object.hasOwn(right, key) && deepEqual(left[key], right[key]));
  }
  // SameValueZero: NaN equals NaN (YAML `.nan`), 0 equals -0.
  return left === right || (Number.isNaN(left) && Number.isNaN(right));
}

/** A plain key/value object, as YAML mappings and JSON objects parse to. */
export function isMapping(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
