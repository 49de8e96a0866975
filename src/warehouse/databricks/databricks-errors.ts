/**
 * What the Databricks driver's errors say. A failed operation is an OperationStateError whose
 * `response` (TGetOperationStatusResp) carries the warehouse's SQLSTATE and words; a refused
 * request is a StatusError (not an Error) with the TStatus message only; a network failure the
 * driver retried is a RetryError with the last failure as its `payload`.
 */
import { messageOf } from '../warehouse-error.js';

interface OperationResponse {
  sqlState?: string;
  errorMessage?: string;
  displayMessage?: string;
}

function responseOf(error: unknown): OperationResponse | undefined {
  return (error as { response?: OperationResponse } | null)?.response;
}

/** The network error a retry gave up on, rather than the driver's "max retries exceeded". */
export function rootCause(error: unknown): unknown {
  const payload = (error as { payload?: unknown } | null)?.payload;
  return payload instanceof Error ? payload : error;
}

/** The warehouse's own words when it gave some (display message, then error message), else the driver's. */
export function driverMessage(error: unknown): string {
  const response = responseOf(error);
  const words = response?.displayMessage || response?.errorMessage;
  if (words) return words;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? message : messageOf(error);
}

/** A syntax error of the warehouse's parser: SQLSTATE 42601, PARSE_SYNTAX_ERROR in the words. */
export function isParseError(error: unknown): boolean {
  return responseOf(error)?.sqlState === '42601' || /\bPARSE_SYNTAX_ERROR\b/.test(driverMessage(error));
}
