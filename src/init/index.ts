export { nextSteps } from './next-steps.js';
export { scaffoldProject } from './scaffold.js';
