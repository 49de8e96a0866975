export { SCAFFOLD_FILES, type ScaffoldReport, scaffoldProject } from './scaffold.js';
