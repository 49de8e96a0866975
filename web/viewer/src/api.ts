/** The viewer API as the UI calls it; every failure becomes an Error with the server's message. */
import type { AppRunJob, AppRunnerStatus, AppRunRequest } from '../../../src/app-runs/app-run-types.js';
import type {
  ApiError,
  CompareResponse,
  FileListResponse,
  FileOverview,
  HistoryResponse,
  RunDetailResponse,
} from '../../../src/viewer/api-types.js';

async function getJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch {
    throw new Error('The viewer server does not answer. Is `nao test server` still running?');
  }
  if (!response.ok) {
    // A body that is not JSON, or has no error, leaves the status line.
    const body = (await response.json().catch(() => null)) as Partial<ApiError> | null;
    throw new Error(
      typeof body?.error === 'string' ? body.error : `${response.status} ${response.statusText}`,
    );
  }
  return (await response.json()) as T;
}

const file = (name: string) => `api/files/${encodeURIComponent(name)}`;

// A file's overview is a few MB for big runs: fetched once per page load, reused when the
// user comes back from a run's detail.
const overviews = new Map<string, Promise<FileOverview>>();

export const api = {
  files: () => getJson<FileListResponse>('api/files'),
  overview(name: string): Promise<FileOverview> {
    let pending = overviews.get(name);
    if (pending === undefined) {
      pending = getJson<FileOverview>(`${file(name)}/overview`);
      pending.catch(() => overviews.delete(name));
      overviews.set(name, pending);
    }
    return pending;
  },
  run: (name: string, index: number) => getJson<RunDetailResponse>(`${file(name)}/runs/${index}`),
  compare: (before: string, after: string) =>
    getJson<CompareResponse>(
      `api/compare?before=${encodeURIComponent(before)}&after=${encodeURIComponent(after)}`,
    ),
  history: () => getJson<HistoryResponse>('api/history'),
  runnerStatus: () => getJson<AppRunnerStatus>('api/app-runs/status'),
  startRun: (request: AppRunRequest) =>
    getJson<{ job: AppRunJob }>('api/app-runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    }),
  runJob: (id: string) => getJson<{ job: AppRunJob }>(`api/app-runs/${encodeURIComponent(id)}`),
  cancelRun: (id: string) =>
    getJson<{ job: AppRunJob }>(`api/app-runs/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};
