import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../../../src/errors/nao-error.js';
import type { FileListResponse } from '../../../src/viewer/api-types.js';
import { countText } from '../../../src/viewer/display-format.js';
import { api } from './api.js';
import { CompareView } from './compare-view.js';
import { Dashboard } from './dashboard.js';
import { fileLabel } from './file-label.js';
import { HistoryView } from './history-view.js';
import { Failure, Loading } from './message-box.js';
import { compareHref, dashboardHref, type Route, useRoute } from './route.js';
import { RunDetail } from './run-detail.js';
import type { Loaded } from './use-load.js';

function currentFile(route: Route, list: FileListResponse): string | null {
  if (route.view === 'dashboard') return route.file ?? list.files[0]?.name ?? null;
  if (route.view === 'run') return route.file;
  return null;
}

function Header(props: { route: Route; list: FileListResponse | null }) {
  const { route, list } = props;
  const file = list ? currentFile(route, list) : null;
  const known = list?.files.some((entry) => entry.name === file) ?? false;
  return (
    <header class="top">
      <a class="brand" href="#/">
        nao <span>test results</span>
      </a>
      <nav class="tabs" aria-label="Views">
        <a
          href={file ? dashboardHref({ file }) : '#/'}
          class={route.view === 'dashboard' || route.view === 'run' ? 'active' : ''}
        >
          Results
        </a>
        <a href={compareHref(null, null)} class={route.view === 'compare' ? 'active' : ''}>
          Compare
        </a>
        <a href="#/history" class={route.view === 'history' ? 'active' : ''}>
          History
        </a>
      </nav>
      {list && list.files.length > 0 && (route.view === 'dashboard' || route.view === 'run') ? (
        <label class="file-picker">
          <span>Results file</span>
          <select
            value={known ? (file ?? '') : ''}
            onChange={(event) => {
              location.hash = dashboardHref({ file: (event.currentTarget as HTMLSelectElement).value });
            }}
            data-testid="file-picker"
          >
            {known ? null : <option value="">{file ?? 'choose a file'}</option>}
            {list.files.map((entry, index) => (
              <option key={entry.name} value={entry.name}>
                {fileLabel(entry.name)}
                {index === 0 ? ' (latest)' : ''}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </header>
  );
}

/**
 * The results files, read again on every navigation so a run that just finished shows up;
 * the previous list stays on screen meanwhile, so pages do not flash or lose their state.
 */
function useFileList(route: Route): Loaded<FileListResponse> {
  const [files, setFiles] = useState<Loaded<FileListResponse>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    api.files().then(
      (data) => {
        if (!current) return;
        setFiles((previous) =>
          previous.state === 'ready' && JSON.stringify(previous.data) === JSON.stringify(data)
            ? previous
            : { state: 'ready', data },
        );
      },
      (error: unknown) => current && setFiles({ state: 'failed', error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [route.view, route.view === 'dashboard' || route.view === 'run' ? route.file : null]);
  return files;
}

export function App() {
  const route = useRoute();
  const files = useFileList(route);
  const list = files.state === 'ready' ? files.data : null;
  let body: ComponentChildren;
  if (files.state === 'failed') body = <Failure message={files.error} />;
  else if (list === null) body = <Loading what="the results files" />;
  else if (route.view === 'run') body = <RunDetail file={route.file} index={route.index} />;
  else if (route.view === 'compare')
    body = <CompareView before={route.before} after={route.after} files={list.files} />;
  else if (route.view === 'history') body = <HistoryView />;
  else body = <Dashboard route={route} newest={list.files[0]?.name ?? null} />;
  return (
    <>
      <Header route={route} list={list} />
      <main>{body}</main>
      <footer class="foot">
        {list ? (
          <>
            Serving <code>{list.outputsDir}</code> · {countText(list.files.length, 'results file')}
          </>
        ) : null}
      </footer>
    </>
  );
}
