import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { trinoEngine } from '../../../test-support/warehouse-conformance/trino-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(trinoEngine);
