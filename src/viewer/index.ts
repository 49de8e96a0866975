export { defaultAssetsDir, startViewerServer } from './viewer-server.js';
