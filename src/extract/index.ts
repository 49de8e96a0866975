export { captureDataSnapshots, unchangedSince } from '../pipeline/data-snapshot.js';
export { runReferenceQuery } from '../pipeline/reference-rows.js';
export { extractAnswer } from './extract-answer.js';
export { prepareSandboxes } from './sandbox.js';
