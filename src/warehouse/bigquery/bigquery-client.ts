/**
 * How nao reaches BigQuery for one configured database: the client's endpoint and
 * credentials, and how the database is named in messages.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { BigQueryOptions } from '@google-cloud/bigquery';
import type { DatabaseConfig } from '../database-config.js';
import { WarehouseError } from '../warehouse-error.js';

export type BigQueryDatabaseConfig = Extract<DatabaseConfig, { type: 'bigquery' }>;
export type BigQueryDriver = typeof import('@google-cloud/bigquery');

const DEFAULT_HOST = 'bigquery.googleapis.com';

/** 'project.dataset via host' for messages: what nao tried to reach, never a key. */
export function describeBigQueryTarget(config: BigQueryDatabaseConfig): string {
  const dataset = config.dataset_id === undefined ? '' : `.${config.dataset_id}`;
  return `${config.project_id}${dataset} via ${endpointHost(config.api_endpoint) ?? DEFAULT_HOST}`;
}

function endpointHost(endpoint: string | undefined): string | undefined {
  if (endpoint === undefined) return undefined;
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}

/** CONNECTION_FAILED for a BigQuery database, with the fields that decide where and as whom. */
export function bigQueryConnectionFailed(options: {
  config: BigQueryDatabaseConfig;
  engineMessage: string;
}): WarehouseError {
  const { config, engineMessage } = options;
  return new WarehouseError({
    code: 'CONNECTION_FAILED',
    database: config.name,
    dialect: 'bigquery',
    engineMessage,
    message:
      `Could not connect to database "${config.name}" (bigquery at ${describeBigQueryTarget(config)}): ${engineMessage}. ` +
      'Check `project_id`, `dataset_id`, `location` and the credentials (`credentials_path`, `credentials_json`, ' +
      'or the Application Default Credentials of `gcloud auth application-default login`) of this database in nao_config.yaml.',
  });
}

/**
 * An auth client that adds no credentials, for an `http://` endpoint (an emulator): Google
 * credentials are never sent in clear text, and no token is fetched from Google for it.
 */
const NO_CREDENTIALS = {
  getRequestHeaders: async () => new Headers(),
  getAccessToken: async () => ({}),
} as unknown as NonNullable<BigQueryOptions['authClient']>;

/**
 * The client options of a configured database. Credentials, in the original's order:
 * `credentials_json`, else the key file `credentials_path` (relative to the project folder),
 * else Application Default Credentials (`sso: true` asks for nothing more: ADC is the user's
 * `gcloud auth application-default login`).
 */
export async function bigQueryClientOptions(options: {
  config: BigQueryDatabaseConfig;
  projectDir: string | undefined;
}): Promise<BigQueryOptions> {
  const { config } = options;
  const client: BigQueryOptions = {
    projectId: config.project_id,
    userAgent: 'nao',
    // A failed request is retried by nao's caller if at all; the library's backoff would hide an outage for minutes.
    maxRetries: 1,
  };
  if (config.location !== undefined) client.location = config.location;
  if (config.api_endpoint !== undefined) client.apiEndpoint = config.api_endpoint.replace(/\/+$/, '');
  const plainHttp = config.api_endpoint?.toLowerCase().startsWith('http://') === true;
  const hasKey = config.credentials_json !== undefined || config.credentials_path !== undefined;
  if (plainHttp) {
    if (hasKey) {
      throw bigQueryConnectionFailed({
        config,
        engineMessage:
          '`api_endpoint` is plain http://, and nao never sends credentials in clear text: use https://, or remove `credentials_json`/`credentials_path` for an emulator',
      });
    }
    client.authClient = NO_CREDENTIALS;
    return client;
  }
  if (config.credentials_json !== undefined) {
    client.credentials = config.credentials_json as BigQueryOptions['credentials'];
  } else if (config.credentials_path !== undefined) {
    const keyFile = path.resolve(options.projectDir ?? process.cwd(), config.credentials_path);
    try {
      await access(keyFile);
    } catch {
      throw bigQueryConnectionFailed({
        config,
        engineMessage: `the service account key file of \`credentials_path\` (${keyFile}) cannot be read`,
      });
    }
    client.keyFilename = keyFile;
  }
  return client;
}
