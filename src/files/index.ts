export { isTempFileName, removeStaleTempFiles, writeFileAtomic, writeNewFileAtomic } from './atomic-write.js';
