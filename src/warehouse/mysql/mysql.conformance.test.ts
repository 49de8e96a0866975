import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { mysqlEngine } from '../../../test-support/warehouse-conformance/mysql-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(mysqlEngine);
