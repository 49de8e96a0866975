import { bigqueryEngine } from '../../../test-support/warehouse-conformance/bigquery-engine.js';
import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(bigqueryEngine);
