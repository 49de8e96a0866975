export { NaoError, UsageError } from './nao-error.js';
