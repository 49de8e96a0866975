export { removeStaleTempFiles, writeFileAtomic, writeNewFileAtomic } from './atomic-write.js';
