export { canonicalJson, sha256Of } from './canonical-json.js';
export { deterministicQueryIds } from './query-ids.js';
export {
  type CreateRecorderOptions,
  createRecorder,
  type RecordedRun,
  type Recorder,
  type RecorderMode,
} from './recorder.js';
export { MissingRecordingError, type ReplayPoint, StaleRecordingError } from './recording-errors.js';
export {
  formatRecording,
  modelFolderName,
  parseRecording,
  RECORDING_FORMAT,
  type RecordedExchange,
  type RecordingFile,
  RecordingFileError,
  readRecording,
  recordingFilePath,
  writeRecording,
} from './recording-file.js';
export {
  describeChanges,
  type MessageSummary,
  type RequestSummary,
  type SummarizedRequest,
  summarizeRequest,
} from './request-summary.js';
