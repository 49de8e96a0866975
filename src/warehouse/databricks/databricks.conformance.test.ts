import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { databricksEngine } from '../../../test-support/warehouse-conformance/databricks-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(databricksEngine);
