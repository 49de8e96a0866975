/**
 * The Vite build of one of the web pages (web/<page>/ into dist/web/<page>/). Everything is
 * bundled (base './', no CDN), so the pages work offline.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type UserConfig, type UserConfigFnObject } from 'vite';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function vitePageConfig(page: 'viewer' | 'chat'): UserConfigFnObject {
  const config = {
    root: path.join(packageRoot, 'web', page),
    base: './',
    plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir: path.join(packageRoot, 'dist', 'web', page),
      emptyOutDir: true,
      target: 'es2022',
      // The polyfill would be dead weight: every browser that runs ES2022 has modulepreload.
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
    },
    // The pages import pure modules from web/shared/ (the SQL formatter) and src/ (cell text, diff highlights…).
    server: { fs: { allow: [packageRoot] } },
  } satisfies UserConfig;
  return defineConfig(({ command }) => {
    // A build is always the production bundle, even when the caller's NODE_ENV says otherwise
    // (vitest sets "test", which would bundle Preact's development JSX runtime).
    if (command === 'build') process.env.NODE_ENV = 'production';
    return config;
  });
}
