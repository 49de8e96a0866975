export { childModule } from './child-module.js';
export { createOwnedFolder } from './owned-folders.js';
export type { JobContext } from './pool-protocol.js';
export { JobLost, processPool } from './process-pool.js';
