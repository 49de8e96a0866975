/**
 * Run again: runs tests anew from the page, on models the user picks, through the viewer
 * server, which sends each run to the backend (`nao chat`) like `nao test` does, or runs it in
 * its own process when no backend is named, and saves the results file next to the others.
 * A running job can be cancelled: what finished is saved.
 */
import { useState } from 'preact/hooks';
import type { AppRunJob, AppRunnerStatus } from '../../../src/app-runs/app-run-types.js';
import { messageOf } from '../../../src/errors/nao-error.js';
import { countText } from '../../../src/viewer/display-format.js';
import { usePolling } from '../../shared/use-polling.js';
import { api } from './api.js';
import { dashboardHref, runHref } from './route.js';
import { StatusBadge } from './status-badge.js';

type Step =
  | { step: 'closed' }
  | { step: 'checking' }
  | { step: 'unavailable'; status: Extract<AppRunnerStatus, { state: 'unavailable' }> }
  | {
      step: 'picking';
      status: Extract<AppRunnerStatus, { state: 'ready' }>;
      chosen: string[];
      error: string | null;
    }
  | { step: 'running'; job: AppRunJob; error: string | null }
  | { step: 'finished'; job: AppRunJob };

export function RunAgain(props: {
  /** The tests to run again, by name. */
  tests: string[];
  /** Pre-picked: the models these results ran on (those the backend offers). */
  models: string[];
  label: string;
  /** The button's test id (a page can show several Run again buttons). */
  testId?: string;
}) {
  const [state, setState] = useState<Step>({ step: 'closed' });
  const close = () => setState({ step: 'closed' });

  const check = () => {
    setState({ step: 'checking' });
    api.runnerStatus().then(
      (status) => {
        if (status.state === 'unavailable') return setState({ step: 'unavailable', status });
        // A local run takes any model nao_config.yaml can call (mock:reference too), so the
        // models these results ran on are offered next to the configured ones.
        const offered =
          status.mode === 'local' ? [...new Set([...status.models, ...props.models])] : status.models;
        const chosen = props.models.filter((model) => offered.includes(model));
        setState({
          step: 'picking',
          status: { ...status, models: offered },
          chosen: chosen.length > 0 ? chosen : status.models.slice(0, 1),
          error: null,
        });
      },
      (error: unknown) =>
        setState({
          step: 'unavailable',
          status: {
            state: 'unavailable',
            reason: 'no-backend',
            backendUrl: null,
            message: messageOf(error),
            command: null,
          },
        }),
    );
  };

  // Follows the job until its results file is written.
  usePolling({
    id: state.step === 'running' ? state.job.id : null,
    poll: api.runJob,
    onAnswer: ({ job }) =>
      setState((previous) =>
        job.state === 'running'
          ? { step: 'running', job, error: previous.step === 'running' ? previous.error : null }
          : { step: 'finished', job },
      ),
  });

  const cancel = (job: AppRunJob) =>
    api.cancelRun(job.id).then(
      (answer) => setState({ step: 'running', job: answer.job, error: null }),
      (error: unknown) => setState({ step: 'running', job, error: messageOf(error) }),
    );

  if (state.step === 'closed') {
    return (
      <button type="button" class="button" data-testid={props.testId ?? 'run-again'} onClick={check}>
        {props.label}
      </button>
    );
  }
  return (
    <section class="panel run-again" data-testid="run-again-panel" aria-label="Run again">
      {state.step === 'checking' ? <p class="notice">Checking how tests can run…</p> : null}
      {state.step === 'unavailable' ? (
        <div data-testid="run-again-unavailable">
          <p>{state.status.message}</p>
          {state.status.command ? (
            <pre class="code command" data-testid="run-again-command">
              {state.status.command}
            </pre>
          ) : null}
          <div class="run-again-actions">
            {state.status.reason === 'disabled' ? null : (
              <button type="button" class="button" onClick={check}>
                Check again
              </button>
            )}
            <button type="button" class="button secondary" onClick={close}>
              Close
            </button>
          </div>
        </div>
      ) : null}
      {state.step === 'picking' ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            api.startRun({ tests: props.tests, models: state.chosen }).then(
              ({ job }) => setState({ step: 'running', job, error: null }),
              (error: unknown) => setState({ ...state, error: messageOf(error) }),
            );
          }}
        >
          <p>
            Run {props.tests.length === 1 ? <strong>{props.tests[0]}</strong> : `${props.tests.length} tests`}{' '}
            again{' '}
            {state.status.mode === 'backend' ? (
              <>
                through <code>{state.status.backendUrl}</code> as {state.status.user}
              </>
            ) : (
              <>
                in this <code>nao test server</code> process, like <code>nao test --local</code> (replayed
                from <code>tests/recordings/</code> when every run is recorded)
              </>
            )}
            , on:
          </p>
          <fieldset class="model-picker" data-testid="run-again-models">
            <legend>Models</legend>
            {state.status.models.map((model) => (
              <label key={model}>
                <input
                  type="checkbox"
                  checked={state.chosen.includes(model)}
                  onChange={(event) => {
                    const on = (event.currentTarget as HTMLInputElement).checked;
                    const chosen = state.status.models.filter((entry) =>
                      entry === model ? on : state.chosen.includes(entry),
                    );
                    setState({ ...state, chosen });
                  }}
                />{' '}
                {model}
              </label>
            ))}
          </fieldset>
          {state.error ? (
            <p class="notice notice-error" role="alert" data-testid="run-again-error">
              {state.error}
            </p>
          ) : null}
          <div class="run-again-actions">
            <button
              type="submit"
              class="button"
              data-testid="run-again-start"
              disabled={state.chosen.length === 0}
            >
              Run {countText(props.tests.length * state.chosen.length, 'run')}
            </button>
            <button type="button" class="button secondary" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {state.step === 'running' ? (
        <div>
          <p class="notice" role="status" data-testid="run-again-progress">
            {state.job.cancelled ? 'Cancelling… ' : 'Running… '}
            {state.job.finished} of {countText(state.job.total, 'run')} finished.
          </p>
          {state.error ? (
            <p class="notice notice-error" role="alert" data-testid="run-again-error">
              {state.error}
            </p>
          ) : null}
          <div class="run-again-actions">
            <button
              type="button"
              class="button secondary"
              data-testid="run-again-cancel"
              disabled={state.job.cancelled === true}
              onClick={() => cancel(state.job)}
            >
              Cancel run
            </button>
          </div>
        </div>
      ) : null}
      {state.step === 'finished' ? <Finished job={state.job} onClose={close} /> : null}
    </section>
  );
}

function Finished(props: { job: AppRunJob; onClose: () => void }) {
  const { job } = props;
  if (job.state === 'failed' || job.file === null) {
    return (
      <div class="notice notice-error" role="alert" data-testid="run-again-error">
        <p>The run could not be saved: {job.error}</p>
        <button type="button" class="button secondary" onClick={props.onClose}>
          Close
        </button>
      </div>
    );
  }
  const href = job.runs.length === 1 ? runHref(job.file, 0) : dashboardHref({ file: job.file });
  return (
    <div data-testid="run-again-done">
      {job.cancelled ? (
        <p class="notice notice-warn" data-testid="run-again-cancelled">
          Cancelled: the runs that finished are saved.
        </p>
      ) : null}
      <ul class="run-again-results">
        {job.runs.map((run, index) => (
          <li key={index} data-testid="run-again-result">
            <StatusBadge status={run.status} /> <strong>{run.name}</strong> · {run.model} · {run.message}
          </li>
        ))}
      </ul>
      <p>
        Saved <code>{job.path}</code>.{' '}
        <a href={href} data-testid="run-again-open">
          Open the new results
        </a>
      </p>
      <button type="button" class="button secondary" onClick={props.onClose}>
        Close
      </button>
    </div>
  );
}
