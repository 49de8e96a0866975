import { describe, expect, it } from 'vitest';
import { driverMessage, isParseError, rootCause } from './databricks-errors.js';

/** Shaped as the driver's errors (dist/errors/*.js), built here since they carry no behaviour. */
const operationFailure = (response: object) =>
  Object.assign(new Error('The operation failed due to an error'), { response });
const statusFailure = (message: string) => ({ name: 'Status Error', message, code: -1 });

describe('Databricks driver errors', () => {
  it.each([
    [
      'a failed operation with SQLSTATE 42601',
      operationFailure({ sqlState: '42601', displayMessage: 'x' }),
      true,
    ],
    [
      'a refused request naming PARSE_SYNTAX_ERROR',
      statusFailure("[PARSE_SYNTAX_ERROR] Syntax error at or near 'INSERT'"),
      true,
    ],
    [
      'an unresolved column',
      operationFailure({ sqlState: '42703', displayMessage: '[UNRESOLVED_COLUMN] x' }),
      false,
    ],
    ['a network failure', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), false],
  ])('%s is a parse error: %s', (_label, error, expected) => {
    expect(isParseError(error)).toBe(expected);
  });

  it('gives the warehouse words of a failed operation, and the message of a refused request', () => {
    expect(
      driverMessage(
        operationFailure({ displayMessage: '[TABLE_OR_VIEW_NOT_FOUND] t', errorMessage: 'long' }),
      ),
    ).toBe('[TABLE_OR_VIEW_NOT_FOUND] t');
    expect(driverMessage(operationFailure({ errorMessage: 'only this' }))).toBe('only this');
    expect(driverMessage(statusFailure('Invalid SessionHandle'))).toBe('Invalid SessionHandle');
  });

  it('reaches the failure a retry gave up on', () => {
    const network = Object.assign(new Error('getaddrinfo ENOTFOUND x.invalid'), { code: 'ENOTFOUND' });
    expect(rootCause(Object.assign(new Error('Max retry count exceeded'), { payload: network }))).toBe(
      network,
    );
    expect(rootCause(network)).toBe(network);
  });
});
