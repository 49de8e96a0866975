import { z } from 'zod';
import { lenientBoolean, lenientNumber, nonEmpty, port } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

const seconds = lenientNumber(z.number().positive().optional());

/** The original nao's ClickHouse entry: a server reached over HTTP(S) (or native TCP, which nao does not speak). */
export const clickhouseDatabase = {
  type: 'clickhouse',
  schema: z.object({
    type: z.literal('clickhouse'),
    ...commonFields,
    host: nonEmpty,
    protocol: z.enum(['http', 'native']).default('http'),
    /** 8123, or 8443 with `secure`, when absent. */
    port,
    database: nonEmpty,
    user: nonEmpty,
    password: z.string().default(''),
    secure: lenientBoolean().default(false),
    connect_timeout: seconds,
    send_receive_timeout: seconds,
    // Certificate checks of the native protocol in the original; HTTPS here always verifies.
    verify: lenientBoolean().default(true),
  }),
} as const;
