export { clusteredMean } from './clustered-mean.js';
export { type PairedDifference, pairedDifference } from './paired-difference.js';
export { pairedPower, testsForPower } from './power.js';
export { wilsonInterval } from './wilson-interval.js';
