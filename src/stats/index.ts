export { clusteredMean, type MeanEstimate, type ScoredRun } from './clustered-mean.js';
export { mcnemarExactP } from './mcnemar-exact.js';
export {
  MIN_PAIRED_TESTS,
  type PairedDifference,
  type PairedScore,
  type PairedVerdict,
  pairedDifference,
} from './paired-difference.js';
export { pairedPower, testsForPower } from './power.js';
export { wilsonInterval } from './wilson-interval.js';
