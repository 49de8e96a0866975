export {
  captureDataSnapshots,
  type DatabaseSnapshot,
  type DataSnapshots,
  unchangedSince,
} from '../pipeline/data-snapshot.js';
export {
  type ReferenceErrorCode,
  type ReferenceRowsResult,
  type RunReferenceQueryOptions,
  runReferenceQuery,
} from '../pipeline/reference-rows.js';
export {
  type ExtractAnswerOptions,
  type ExtractedData,
  type ExtractionErrorKind,
  type ExtractionModel,
  ExtractionModelError,
  type ExtractionResult,
  extractAnswer,
  MAX_EXTRACTION_ATTEMPTS,
  NO_ANSWER_ERROR,
  NO_QUERY_ERROR,
} from './extract-answer.js';
export type { LoadedTable, SourceTable } from './load-tables.js';
export { checkExtractionSql, MAX_SQL_LENGTH, type SafetyCheckResult } from './safety-check.js';
export {
  DEFAULT_SANDBOX_OPTIONS,
  prepareSandboxes,
  Sandbox,
  type SandboxFailureKind,
  type SandboxOptions,
  type SandboxQueryResult,
  withSandbox,
} from './sandbox.js';
