import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { starrocksEngine } from '../../../test-support/warehouse-conformance/starrocks-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(starrocksEngine);
