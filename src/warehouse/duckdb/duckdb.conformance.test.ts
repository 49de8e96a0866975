import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { duckdbEngine } from '../../../test-support/warehouse-conformance/duckdb-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(duckdbEngine);
