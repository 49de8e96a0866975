import { homedir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPathScrubber } from './wire-paths.js';

describe('createPathScrubber', () => {
  const project = path.join(homedir(), 'work', 'shop');
  const scrub = createPathScrubber({ projectDirs: [project, '/srv/real/shop'] });

  it.each([
    [`No test named x in ${project}/tests any more.`, 'No test named x in tests any more.'],
    ['Invalid file /srv/real/shop/tests/a.yml', 'Invalid file tests/a.yml'],
    [`cannot open ${project}`, 'cannot open .'],
    [`secret at ${homedir()}/.nao/credentials.json`, 'secret at ~/.nao/credentials.json'],
    ['nothing to hide', 'nothing to hide'],
  ])('%s → %s', (text, expected) => {
    expect(scrub(text)).toBe(expected);
  });
});
