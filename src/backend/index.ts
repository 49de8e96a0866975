export { startBackend } from './backend.js';
