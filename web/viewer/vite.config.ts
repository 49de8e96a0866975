/**
 * Builds the results viewer's web UI into dist/web/viewer/, where `nao test server` serves it from.
 * Build: npx vite build --config web/viewer/vite.config.ts
 */
import { vitePageConfig } from '../vite-page-config.js';

export default vitePageConfig('viewer');
