import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { snowflakeEngine } from '../../../test-support/warehouse-conformance/snowflake-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(snowflakeEngine);
