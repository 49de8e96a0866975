export { createRecorder } from './recorder.js';
