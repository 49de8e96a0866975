import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';

/** The files `npm pack` would ship (dist/ must be built: npm test builds it first). */
function packedFiles(): string[] {
  const json = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(json) as Array<{ files: Array<{ path: string }> }>;
  return pack!.files.map((file) => file.path);
}

describe('the npm package', () => {
  it('ships the product only: the binary, the compiled sources and the built web pages', () => {
    const files = packedFiles();
    expect(files).toContain('bin/nao.js');
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('dist/web/viewer/index.html');
    expect(files).toContain('dist/web/chat/index.html');
    const outside = files.filter(
      (file) => !file.startsWith('dist/') && !['bin/nao.js', 'package.json', 'README.md'].includes(file),
    );
    expect(outside).toEqual([]);
    const tooling = files.filter((file) =>
      /(^|\/)(test-support|tools|bench|llm-server)\/|\.test\.js/.test(file),
    );
    expect(tooling).toEqual([]);
  });
});
