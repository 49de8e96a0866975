import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { fabricEngine, mssqlEngine } from '../../../test-support/warehouse-conformance/mssql-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(mssqlEngine);
await describeConformance(fabricEngine);
