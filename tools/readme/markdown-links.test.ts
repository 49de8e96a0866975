import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/cli/example-project.js';
import { readDocumentation } from './documentation-files.js';
import { brokenLinks, headingAnchors, headingSlug, relativeLinks } from './markdown-links.js';

describe('headingSlug', () => {
  it('makes the anchors GitHub makes', () => {
    expect(headingSlug('`nao test`')).toBe('nao-test');
    expect(headingSlug('How sure is a pass rate?')).toBe('how-sure-is-a-pass-rate');
    expect(headingSlug('`nao_config.yaml` reference')).toBe('nao_configyaml-reference');
    expect(headingSlug('What nao does differently, and why')).toBe('what-nao-does-differently-and-why');
  });
});

describe('headingAnchors and relativeLinks', () => {
  it('number repeated headings and ignore what code blocks and code spans hold', () => {
    const page = [
      '# A',
      '## Notes',
      '```bash',
      '# not a heading [x](gone.md)',
      '```',
      '## Notes',
      'See `[y](gone.md)` and [B](b.md#c).',
    ].join('\n');
    expect([...headingAnchors(page)]).toEqual(['a', 'notes', 'notes-1']);
    expect(relativeLinks(page)).toEqual(['b.md#c']);
    expect(relativeLinks('[re2](https://github.com/google/re2) [top](#a)')).toEqual(['#a']);
  });
});

describe('brokenLinks', () => {
  it('names a missing file, a missing anchor and an anchor on a page it cannot read', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'nao-doc-links-'));
    writeFileSync(path.join(root, 'package.json'), '{}');
    const readme = {
      file: 'README.md',
      text: '# nao\n[ok](docs/a.md#setup) [gone](docs/b.md) [bad](docs/a.md#nope) [self](#nao)\n',
    };
    const page = {
      file: 'docs/a.md',
      text: '# A\n## Setup\n[back](../README.md#nao) [pkg](../package.json#x)\n',
    };
    const files = [readme, page];
    mkdirSync(path.join(root, 'docs'));
    for (const { file, text } of files) writeFileSync(path.join(root, file), text);
    expect(brokenLinks({ root, files }).map(({ file, target }) => `${file} → ${target}`)).toEqual([
      'README.md → docs/b.md',
      'README.md → docs/a.md#nope',
      'docs/a.md → ../package.json#x',
    ]);
  });
});

describe('the links of README.md and docs/', () => {
  it('all resolve, anchors included', () => {
    expect(brokenLinks({ root: REPO_ROOT, files: readDocumentation(REPO_ROOT) })).toEqual([]);
  });

  it('reach every page of docs/ from the README', () => {
    const documentation = readDocumentation(REPO_ROOT);
    const readme = documentation.find(({ file }) => file === 'README.md')?.text ?? '';
    const linked = new Set(relativeLinks(readme).map((target) => target.split('#')[0]));
    const pages = documentation.map(({ file }) => file).filter((file) => file.startsWith('docs/'));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((file) => !linked.has(file))).toEqual([]);
  });
});
