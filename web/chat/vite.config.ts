/**
 * Builds the chat page of `nao chat` into dist/web/chat/, where the backend serves it at /chat/.
 * Build: npx vite build --config web/chat/vite.config.ts
 */
import { vitePageConfig } from '../vite-page-config.js';

export default vitePageConfig('chat');
