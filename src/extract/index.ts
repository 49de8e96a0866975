export { extractAnswer } from './extract-answer.js';
export { prepareSandboxes } from './sandbox.js';
