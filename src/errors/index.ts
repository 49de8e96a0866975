export { didYouMean } from './did-you-mean.js';
export { NaoError, UsageError } from './nao-error.js';
