import { describeConformance } from '../../../test-support/warehouse-conformance/conformance-suite.js';
import { redshiftEngine } from '../../../test-support/warehouse-conformance/redshift-engine.js';

// The engine's entry of the warehouse conformance suite (what every engine must do).
await describeConformance(redshiftEngine);
