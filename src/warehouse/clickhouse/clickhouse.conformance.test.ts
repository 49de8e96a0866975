import { clickhouseEngine } from '../../../test-support/warehouse-conformance/clickhouse-engine.js';
import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(clickhouseEngine);
