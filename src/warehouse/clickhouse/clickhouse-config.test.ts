import { describe, expect, it } from 'vitest';
import { ConfigInvalidError, parseConfig } from '../../config/index.js';

function parse(entry: string, env: Record<string, string> = {}) {
  return parseConfig({
    text: `databases:\n  - name: ch\n    type: clickhouse\n${entry}`,
    projectDir: '/p',
    env,
  });
}

function problems(entry: string): string {
  try {
    parse(entry);
  } catch (error) {
    if (error instanceof ConfigInvalidError) return error.problems.join('\n');
    throw error;
  }
  throw new Error('expected the config to be invalid');
}

describe('clickhouse database entries', () => {
  it("reads the original's fields, with its defaults", () => {
    const config = parse('    host: ch.internal\n    database: analytics\n    user: reader\n');
    expect(config.databases[0]).toEqual({
      name: 'ch',
      type: 'clickhouse',
      host: 'ch.internal',
      database: 'analytics',
      user: 'reader',
      password: '',
      protocol: 'http',
      secure: false,
      verify: true,
    });
    expect(config.warnings).toEqual([]);
  });

  it('reads ports, timeouts and booleans written as strings, and env() values', () => {
    const config = parse(
      "    host: ch\n    port: \"8443\"\n    secure: 'true'\n    connect_timeout: '5'\n    send_receive_timeout: 60\n    database: d\n    user: u\n    password: {{ env('CH_PASSWORD') }}\n    protocol: native\n",
      { CH_PASSWORD: 's3cret' },
    );
    expect(config.databases[0]).toMatchObject({
      port: 8443,
      secure: true,
      connect_timeout: 5,
      send_receive_timeout: 60,
      password: 's3cret',
      protocol: 'native',
    });
  });

  it.each([
    ['    database: d\n    user: u\n', 'databases[0].host:'],
    ['    host: h\n    user: u\n', 'databases[0].database:'],
    ['    host: h\n    database: d\n', 'databases[0].user:'],
    ['    host: h\n    database: d\n    user: u\n    protocol: grpc\n', 'databases[0].protocol:'],
    ['    host: h\n    database: d\n    user: u\n    port: 99999\n', 'databases[0].port:'],
  ])('refuses %j naming the key', (entry, expected) => {
    expect(problems(entry)).toContain(expected);
  });
});
