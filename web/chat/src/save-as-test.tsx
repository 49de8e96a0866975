import { useState } from 'preact/hooks';
import { formatSql } from '../../shared/format-sql.js';
import { usePolling } from '../../shared/use-polling.js';
import { type AppRunJob, api } from './api.js';

/**
 * Save as test: writes tests/<name>.yml; "Save and run" then runs it at once on the answer's
 * model (judged like `nao test`, saved to tests/outputs/) and shows the saved test and its
 * verdict here.
 */
export function SaveAsTest(props: {
  model: string;
  question: string;
  queries: { sql: string; database: string | undefined }[];
}) {
  const { queries } = props;
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState(queries.length - 1);
  const [sql, setSql] = useState(queries[queries.length - 1]?.sql ?? '');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [saved, setSaved] = useState<{ path: string; name: string; sql: string } | null>(null);
  const [job, setJob] = useState<AppRunJob | null>(null);
  const [runError, setRunError] = useState<string | null>(null);

  usePolling({
    id: job?.state === 'running' ? job.id : null,
    poll: api.testRun,
    onAnswer: (answer) => setJob(answer.job),
  });

  if (!open) {
    return (
      <button type="button" class="secondary" onClick={() => setOpen(true)}>
        Save as test
      </button>
    );
  }

  const save = (andRun: boolean) => {
    setStatus(null);
    setRunError(null);
    const testName = name.trim();
    api
      .saveTest({ name: testName, prompt: props.question, sql, database: queries[chosen]?.database })
      .then((answer) => {
        setStatus({ ok: true, text: `Saved ${answer.path}.` });
        setSaved({ path: answer.path, name: testName, sql });
        if (!andRun) return;
        setJob(null);
        return api.runTests({ tests: [testName], models: [props.model] }).then(
          (started) => setJob(started.job),
          (error: Error) => setRunError(error.message),
        );
      })
      .catch((error: Error) => setStatus({ ok: false, text: error.message }));
  };

  return (
    <form
      class="save-test"
      data-testid="save-test"
      onSubmit={(event) => {
        event.preventDefault();
        save(false);
      }}
    >
      <label>
        Test name
        <input
          value={name}
          placeholder="e.g. revenue_by_month"
          onInput={(event) => setName((event.target as HTMLInputElement).value)}
        />
      </label>
      {queries.length > 1 && (
        <label>
          Query
          <select
            aria-label="Query"
            value={String(chosen)}
            onChange={(event) => {
              const index = Number((event.target as HTMLSelectElement).value);
              setChosen(index);
              setSql(queries[index]?.sql ?? '');
            }}
          >
            {queries.map((query, index) => (
              <option key={index} value={String(index)}>
                {`Query ${index + 1}: ${query.sql.slice(0, 60)}`}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        SQL
        <textarea
          class="sql-edit"
          value={sql}
          onInput={(event) => setSql((event.target as HTMLTextAreaElement).value)}
        />
      </label>
      <div class="controls">
        <button type="submit">Save</button>
        <button type="button" onClick={() => save(true)} title={`Save, then run the test on ${props.model}`}>
          Save and run
        </button>
        <button type="button" class="secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {status !== null && (
        <p class={status.ok ? 'ok' : 'error'} role="status" data-testid="save-status">
          {status.text}
        </p>
      )}
      {saved !== null && (job !== null || runError !== null) && (
        <div class="test-run" data-testid="test-run">
          <p>
            <strong>{saved.name}</strong> <span class="muted">{saved.path}</span>
          </p>
          <p class="muted">{props.question}</p>
          <pre class="sql">{formatSql(saved.sql)}</pre>
          {runError !== null && (
            <p class="error" role="alert" data-testid="test-run-status">
              {runError}
            </p>
          )}
          {job !== null && (
            <TestRunStatus
              job={job}
              onCancel={() =>
                api.cancelTestRun(job.id).then(
                  (answer) => setJob(answer.job),
                  (error: Error) => setRunError(error.message),
                )
              }
            />
          )}
        </div>
      )}
    </form>
  );
}

function TestRunStatus(props: { job: AppRunJob; onCancel: () => void }) {
  const { job } = props;
  if (job.state === 'running') {
    return (
      <p class="muted working" data-testid="test-run-status">
        {job.cancelled ? 'Cancelling…' : `Running on ${job.models.join(', ')}…`}{' '}
        {!job.cancelled && (
          <button type="button" class="secondary" data-testid="cancel-test-run" onClick={props.onCancel}>
            Cancel run
          </button>
        )}
      </p>
    );
  }
  if (job.state === 'failed') {
    return (
      <p class="error" role="alert" data-testid="test-run-status">
        The run could not be saved: {job.error}
      </p>
    );
  }
  return (
    <div data-testid="test-run-status">
      {job.cancelled && <p class="muted">Cancelled: runs that had not finished did not run.</p>}
      {job.runs.map((run, index) => (
        <p key={index} class={run.status === 'passed' ? 'ok' : 'error'} data-testid="test-run-verdict">
          {run.status} on {run.model}: {run.message}
        </p>
      ))}
      <p class="muted">
        Results saved to <code>{job.path}</code>; open them with <code>nao test server</code>.
      </p>
    </div>
  );
}
