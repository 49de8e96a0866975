export { didYouMean } from './did-you-mean.js';
export { messageOf, NaoError, UsageError } from './nao-error.js';
