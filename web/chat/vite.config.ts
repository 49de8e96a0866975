/**
 * Builds the chat page of `nao chat` into dist/web/chat/, where the backend serves it at /chat/.
 * Everything is bundled (base './', no CDN), so the chat page works offline.
 * Build: npx vite build --config web/chat/vite.config.ts
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type UserConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(root, '..', '..');

const config = {
  root,
  base: './',
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: path.join(packageRoot, 'dist', 'web', 'chat'),
    emptyOutDir: true,
    target: 'es2022',
    // The polyfill would be dead weight: every browser that runs ES2022 has modulepreload.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  // The page imports pure modules from web/shared/ (the SQL formatter) and src/viewer/ (cell text).
  server: { fs: { allow: [packageRoot] } },
} satisfies UserConfig;

export default defineConfig(({ command }) => {
  // A build is always the production bundle, even when the caller's NODE_ENV says otherwise
  // (vitest sets "test", which would bundle Preact's development JSX runtime).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});
