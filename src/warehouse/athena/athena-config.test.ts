import { describe, expect, it } from 'vitest';
import { ConfigInvalidError, parseConfig } from '../../config/index.js';

function parse(text: string, env: Record<string, string | undefined> = {}) {
  return parseConfig({ text, projectDir: '/projects/shop', env });
}

function problemsOf(text: string): string {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ConfigInvalidError) return error.problems.join('\n');
    throw error;
  }
  throw new Error('expected the config to be invalid');
}

const BASE = 'databases:\n  - name: lake\n    type: athena\n';

describe('athena databases', () => {
  it("reads the original nao's fields, with credentials from the environment", () => {
    const config = parse(
      `${BASE}    region_name: eu-west-1\n    s3_staging_dir: s3://results/nao/\n    work_group: analysts\n    schema_name: sales\n    aws_access_key_id: {{ env('AWS_ACCESS_KEY_ID') }}\n    aws_secret_access_key: {{ env('AWS_SECRET_ACCESS_KEY') }}\n`,
      { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI' },
    );
    expect(config.databases[0]).toMatchObject({
      type: 'athena',
      region_name: 'eu-west-1',
      s3_staging_dir: 's3://results/nao/',
      work_group: 'analysts',
      schema_name: 'sales',
      aws_access_key_id: 'AKIDEXAMPLE',
      aws_secret_access_key: 'wJalrXUtnFEMI',
    });
    expect(config.warnings).toEqual([]);
  });

  it('takes a profile instead of keys, and null for the optional fields as the original writes them', () => {
    const config = parse(
      `${BASE}    region_name: us-east-1\n    s3_staging_dir: s3://results\n    profile_name: analytics\n    work_group: null\n    aws_session_token: null\n`,
    );
    expect(config.databases[0]).toMatchObject({ profile_name: 'analytics', work_group: null });
  });

  it.each([
    [`${BASE}    s3_staging_dir: s3://results\n`, 'databases[0].region_name:'],
    [`${BASE}    region_name: us-east-1\n`, 'databases[0].s3_staging_dir:'],
    [
      `${BASE}    region_name: us-east-1\n    s3_staging_dir: /tmp/results\n`,
      'must be an s3://bucket/path url',
    ],
    [
      `${BASE}    region_name: us-east-1\n    s3_staging_dir: s3://results\n    aws_access_key_id: AKID\n`,
      'give both `aws_access_key_id` and `aws_secret_access_key`',
    ],
  ])('%j → %s', (text, expected) => {
    expect(problemsOf(text)).toContain(expected);
  });
});
