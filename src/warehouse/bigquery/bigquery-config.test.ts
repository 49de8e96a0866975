import { describe, expect, it } from 'vitest';
import { ConfigInvalidError, parseConfig } from '../../config/index.js';
import { DEFAULT_MAXIMUM_BYTES_BILLED } from './bigquery-config.js';

function parse(text: string, env: Record<string, string | undefined> = {}) {
  return parseConfig({
    text: `databases:\n  - name: bq\n    type: bigquery\n${text}`,
    projectDir: '/p',
    env,
  });
}

function problemsOf(text: string): string[] {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ConfigInvalidError) return error.problems;
    throw error;
  }
  throw new Error('expected the config to be invalid');
}

describe('bigquery databases in nao_config.yaml', () => {
  it('reads the original nao fields, with the bytes-billed default', () => {
    const config = parse(
      [
        '    project_id: my-project',
        '    dataset_id: analytics',
        '    credentials_path: keys/sa.json',
        '    sso: "false"',
        '    location: EU',
        '    max_query_size: "2.5"',
        '    partition_filters:',
        '      events: event_date >= CURRENT_DATE()',
        '',
      ].join('\n'),
    );
    expect(config.databases[0]).toEqual({
      name: 'bq',
      type: 'bigquery',
      project_id: 'my-project',
      dataset_id: 'analytics',
      credentials_path: 'keys/sa.json',
      sso: false,
      location: 'EU',
      max_query_size: 2.5,
      maximum_bytes_billed: DEFAULT_MAXIMUM_BYTES_BILLED,
    });
    expect(config.warnings).toEqual([]);
    expect(DEFAULT_MAXIMUM_BYTES_BILLED).toBe(107_374_182_400);
  });

  it('reads the nulls the original nao init writes for unset keys as absent', () => {
    const config = parse(
      '    project_id: hello\n    dataset_id: null\n    credentials_path: null\n    credentials_json: null\n    sso: false\n    location: null\n    max_query_size: null\n',
    );
    expect(config.databases[0]).toEqual({
      name: 'bq',
      type: 'bigquery',
      project_id: 'hello',
      sso: false,
      maximum_bytes_billed: DEFAULT_MAXIMUM_BYTES_BILLED,
    });
  });

  it('reads credentials_json as a mapping or as JSON text from the environment', () => {
    const key = { type: 'service_account', client_email: 'nao@p.iam.gserviceaccount.com' };
    const fromText = parse('    project_id: p\n    credentials_json: \'{{ env("GCP_KEY") }}\'\n', {
      GCP_KEY: JSON.stringify(key),
    });
    expect(fromText.databases[0]).toMatchObject({ credentials_json: key });
    const fromMapping = parse(
      '    project_id: p\n    credentials_json:\n      type: service_account\n      client_email: nao@p.iam.gserviceaccount.com\n',
    );
    expect(fromMapping.databases[0]).toMatchObject({ credentials_json: key });
  });

  it('reads maximum_bytes_billed and api_endpoint, numbers also as strings', () => {
    const config = parse(
      '    project_id: p\n    maximum_bytes_billed: "10485760"\n    api_endpoint: http://127.0.0.1:9050\n',
    );
    expect(config.databases[0]).toMatchObject({
      maximum_bytes_billed: 10_485_760,
      api_endpoint: 'http://127.0.0.1:9050',
    });
  });

  it.each([
    ['    dataset_id: d\n', 'databases[0].project_id:'],
    ['    project_id: ""\n', 'databases[0].project_id: must not be empty'],
    [
      '    project_id: p\n    credentials_json: "{not json"\n',
      'databases[0].credentials_json: expected a service account key',
    ],
    ['    project_id: p\n    maximum_bytes_billed: 0\n', 'databases[0].maximum_bytes_billed:'],
    ['    project_id: p\n    maximum_bytes_billed: 1.5\n', 'databases[0].maximum_bytes_billed:'],
    ['    project_id: p\n    max_query_size: -1\n', 'databases[0].max_query_size:'],
    [
      '    project_id: p\n    api_endpoint: localhost:9050\n',
      'databases[0].api_endpoint: expected an http:// or https:// URL',
    ],
  ])('refuses %j naming the key', (text, expected) => {
    expect(problemsOf(text).join('\n')).toContain(expected);
  });

  it('leaves an entry whose project comes from an unset variable unopened, naming the variable', () => {
    const config = parse('    project_id: \'{{ env("GCP_PROJECT") }}\'\n');
    expect(config.databases).toEqual([]);
    expect(config.unavailableDatabases[0]?.reason).toContain('GCP_PROJECT');
  });

  it('warns about a misspelt key with the nearest BigQuery key', () => {
    expect(parse('    project_id: p\n    datset_id: d\n').warnings.join('\n')).toContain(
      'did you mean `dataset_id`?',
    );
  });
});
