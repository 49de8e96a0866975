import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { sqliteEngine } from '../../../test-support/warehouse-conformance/sqlite-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(sqliteEngine);
