import { z } from 'zod';
import { lenientBoolean, lenientNumber, nonEmpty, nullable } from '../../yaml-fields/lenient-fields.js';
import { commonFields } from '../database-fields.js';

/**
 * What one BigQuery query may bill unless `maximum_bytes_billed` says otherwise: 100 GiB,
 * about $0.60 at on-demand prices, so a runaway agent query costs little while real analytics
 * over large tables still run. BigQuery fails a query that would bill more, before it runs.
 */
export const DEFAULT_MAXIMUM_BYTES_BILLED = 100 * 1024 ** 3;

/** A service account key, as the original reads it: a mapping, or its JSON text (an `{{ env() }}` value). */
const credentialsJson = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    if (value.trim() === '') return undefined;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z.record(z.string(), z.unknown(), {
    error: 'expected a service account key: a mapping, or its JSON text',
  }),
);

const endpoint = nonEmpty.regex(/^https?:\/\/[^\s/]+/i, 'expected an http:// or https:// URL');

export const bigqueryDatabase = {
  type: 'bigquery',
  schema: z.object({
    type: z.literal('bigquery'),
    ...commonFields,
    project_id: nonEmpty,
    dataset_id: nullable(nonEmpty),
    credentials_path: nullable(nonEmpty),
    credentials_json: nullable(credentialsJson),
    sso: nullable(lenientBoolean()),
    location: nullable(nonEmpty),
    /** The original's dry-run limit, in GiB: a query estimated to process more is refused before it runs. */
    max_query_size: nullable(lenientNumber(z.number().positive().optional())),
    /** BigQuery's own limit, in bytes, set on every query job. */
    maximum_bytes_billed: lenientNumber(
      z.number().int().positive().max(Number.MAX_SAFE_INTEGER).default(DEFAULT_MAXIMUM_BYTES_BILLED),
    ),
    /** Another endpoint for the BigQuery API (a private endpoint, or an emulator over http://). */
    api_endpoint: nullable(endpoint),
  }),
  // `partition_filters` only shapes the original's `nao sync` previews.
  extraKeys: { location: ['partition_filters'] },
} as const;
