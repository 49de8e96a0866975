import { spawn } from 'node:child_process';

/** Opens a URL in the user's browser; false when there is no browser to open it in. */
export type OpenBrowser = (url: string) => Promise<boolean>;

/** A launcher still running after this long is taken as a browser that opened (it may never exit). */
const SETTLE_MS = 3000;

/**
 * The system's way to open a URL: `$BROWSER` when set (`none` disables it; `%s` marks where
 * the URL goes, else it is appended), else `open` (macOS), `rundll32` (Windows) or
 * `xdg-open` (only with a display: over SSH there is no browser to open).
 */
export function systemBrowserOpener(options: {
  env: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
}): OpenBrowser {
  const { env } = options;
  const platform = options.platform ?? process.platform;
  return async (url) => {
    const command = commandFor({ url, env, platform });
    return command === null ? false : launch(command, env);
  };
}

function commandFor(options: {
  url: string;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
}): string[] | null {
  const { url, env, platform } = options;
  const browser = env.BROWSER?.trim();
  if (browser !== undefined && browser !== '') {
    if (['none', 'false', '0'].includes(browser.toLowerCase())) return null;
    // Like Python's webbrowser: the first of several colon-separated commands.
    const words = (browser.split(platform === 'win32' ? ';' : ':')[0] ?? browser).trim().split(/\s+/);
    return words.some((word) => word.includes('%s'))
      ? words.map((word) => word.replaceAll('%s', url))
      : [...words, url];
  }
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', url];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return ['xdg-open', url];
}

function launch(command: string[], env: Record<string, string | undefined>): Promise<boolean> {
  const [file, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    let settled = false;
    const settle = (opened: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.unref();
      resolve(opened);
    };
    const child = spawn(file, args, { stdio: 'ignore', detached: true, env: env as NodeJS.ProcessEnv });
    const timer = setTimeout(() => settle(true), SETTLE_MS);
    child.once('error', () => settle(false));
    child.once('exit', (code) => settle(code === 0));
  });
}
