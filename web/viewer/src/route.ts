/**
 * The page's location lives in the URL hash, so every view can be linked, reloaded and
 * reached with Back, and the server only ever serves one page.
 *
 *   #/                                   newest file
 *   #/files/<name>?model=&status=&q=&sort=&dir=
 *   #/files/<name>/runs/<index>
 *   #/compare?before=<name>&after=<name>
 *   #/history
 */
import { useEffect, useState } from 'preact/hooks';
import type { RunStatus } from '../../../src/results/index.js';
import { RUN_STATUSES } from '../../../src/results/run-status.js';
import { isRunColumn, type RunSort } from '../../../src/viewer/run-table.js';

export interface DashboardRoute {
  view: 'dashboard';
  file: string | null;
  model: string | null;
  status: RunStatus | null;
  search: string;
  sort: RunSort | null;
}

export type Route =
  | DashboardRoute
  | { view: 'run'; file: string; index: number }
  | { view: 'compare'; before: string | null; after: string | null }
  | { view: 'history' };

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function parseHash(hash: string): Route {
  const text = hash.replace(/^#/, '');
  const questionMark = text.indexOf('?');
  const pathPart = questionMark === -1 ? text : text.slice(0, questionMark);
  const query = new URLSearchParams(questionMark === -1 ? '' : text.slice(questionMark + 1));
  const parts = pathPart.split('/').filter((part) => part !== '');
  if (parts[0] === 'history') return { view: 'history' };
  if (parts[0] === 'compare') {
    return { view: 'compare', before: query.get('before'), after: query.get('after') };
  }
  const file = parts[0] === 'files' && parts[1] !== undefined ? decode(parts[1]) : null;
  if (file !== null && parts[2] === 'runs' && parts[3] !== undefined && /^\d+$/.test(parts[3])) {
    return { view: 'run', file, index: Number(parts[3]) };
  }
  const status = query.get('status');
  const column = query.get('sort');
  return {
    view: 'dashboard',
    file,
    model: query.get('model'),
    status: RUN_STATUSES.includes(status as RunStatus) ? (status as RunStatus) : null,
    search: query.get('q') ?? '',
    sort: isRunColumn(column) ? { column, direction: query.get('dir') === 'desc' ? 'desc' : 'asc' } : null,
  };
}

export function dashboardHref(options: {
  file: string;
  model?: string | null;
  status?: RunStatus | null;
  search?: string;
  sort?: RunSort | null;
}): string {
  const query = new URLSearchParams();
  if (options.model) query.set('model', options.model);
  if (options.status) query.set('status', options.status);
  if (options.search) query.set('q', options.search);
  if (options.sort) {
    query.set('sort', options.sort.column);
    query.set('dir', options.sort.direction);
  }
  return withQuery(`#/files/${encodeURIComponent(options.file)}`, query);
}

export function runHref(file: string, index: number): string {
  return `#/files/${encodeURIComponent(file)}/runs/${index}`;
}

export function compareHref(before: string | null, after: string | null): string {
  const query = new URLSearchParams();
  if (before) query.set('before', before);
  if (after) query.set('after', after);
  return withQuery('#/compare', query);
}

function withQuery(path: string, query: URLSearchParams): string {
  const search = query.toString();
  return search === '' ? path : `${path}?${search}`;
}

/** Replaces the URL without a new history entry or a hashchange (typing in the search box). */
export function replaceHash(href: string): void {
  history.replaceState(history.state, '', href);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
