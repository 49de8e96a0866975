export { childModule } from './child-module.js';
export { naoTempFolder } from './owned-folders.js';
export type { JobContext } from './pool-worker.js';
export { JobLost, processPool } from './process-pool.js';
