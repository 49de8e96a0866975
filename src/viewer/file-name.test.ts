import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasDotSegments, resolveResultsFileName } from './file-name.js';

const outputsDir = path.resolve('/project/tests/outputs');

describe('resolveResultsFileName', () => {
  it.each(['results_20250209_143022.json', 'results_20250209_143022_2.json', 'results_before refactor.json'])(
    'accepts %j inside tests/outputs/',
    (name) => {
      expect(resolveResultsFileName({ outputsDir, name })).toEqual({
        success: true,
        path: path.join(outputsDir, name),
      });
    },
  );

  it.each([
    ['', /empty/],
    ['../results_x.json', /cannot contain \//],
    ['..\\results_x.json', /cannot contain \//],
    ['/etc/results_x.json', /cannot contain \//],
    ['..', /results_\*\.json/],
    ['results_%2e%2e%2fx.json', /cannot contain %/],
    ['results_x.json\u0000.png', /control characters/],
    ['.results-1-abc.tmp', /results_\*\.json/],
    ['nao_config.yaml', /results_\*\.json/],
    ['results_x.json.bak', /results_\*\.json/],
    [`results_${'x'.repeat(300)}.json`, /longer than/],
  ])('refuses %j', (name, problem) => {
    const check = resolveResultsFileName({ outputsDir, name });
    expect(check.success).toBe(false);
    if (!check.success) expect(check.error).toMatch(problem);
  });
});

describe('hasDotSegments', () => {
  it.each<[string, boolean]>([
    ['/api/files/results_x.json', false],
    ['/api/files/results_x..json', false],
    ['/api/files/../secret.json', true],
    ['/api/files/./x', true],
    ['/api/files/%2e%2e/secret.json', true],
    ['/api/files/%2E%2E%2Fsecret.json', true],
    ['/api/files/%252e%252e%252fsecret.json', true],
    ['/api/files/a\\b', true],
    ['/api/files/%5c..%5csecret', true],
    ['/api/files/%E0%A4%A', false],
    ['/api/compare?before=../x', false],
  ])('%s → %s', (rawPath, expected) => {
    expect(hasDotSegments(rawPath)).toBe(expected);
  });
});
