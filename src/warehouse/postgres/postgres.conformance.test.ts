import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { postgresEngine } from '../../../test-support/warehouse-conformance/postgres-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(postgresEngine);
