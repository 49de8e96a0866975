export type {
  ApiError,
  CompareResponse,
  FileListResponse,
  FileOverview,
  HistoryPoint,
  HistoryResponse,
  ResultsFileEntry,
  RunDetailResponse,
  RunRow,
  ViewerComparedPair,
} from './api-types.js';
export { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT } from './listen-defaults.js';
export { createResultsStore, type LoadOutcome, type ResultsStore } from './results-store.js';
export { createViewerApp, type ViewerAppOptions } from './viewer-app.js';
export {
  defaultAssetsDir,
  startViewerServer,
  type ViewerServer,
  type ViewerServerOptions,
} from './viewer-server.js';
