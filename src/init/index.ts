export { scaffoldProject } from './scaffold.js';
