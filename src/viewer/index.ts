export { startViewerServer } from './viewer-server.js';
