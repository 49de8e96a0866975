/**
 * Run again: runs tests anew from the page, on models the user picks, through the viewer
 * server, which sends each run to the backend (`nao chat`) like `nao test` does and saves the
 * results file next to the others. Without a backend, it says how to start one.
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
  | { step: 'running'; job: AppRunJob }
  | { step: 'finished'; job: AppRunJob };

export function RunAgain(props: {
  /** The tests to run again, by name. */
  tests: string[];
  /** Pre-picked: the models these results ran on (those the backend offers). */
  models: string[];
  label: string;
}) {
  const [state, setState] = useState<Step>({ step: 'closed' });
  const close = () => setState({ step: 'closed' });

  const check = () => {
    setState({ step: 'checking' });
    api.runnerStatus().then(
      (status) => {
        if (status.state === 'unavailable') return setState({ step: 'unavailable', status });
        const chosen = props.models.filter((model) => status.models.includes(model));
        setState({
          step: 'picking',
          status,
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
      setState(job.state === 'running' ? { step: 'running', job } : { step: 'finished', job }),
  });

  if (state.step === 'closed') {
    return (
      <button type="button" class="button" data-testid="run-again" onClick={check}>
        {props.label}
      </button>
    );
  }
  return (
    <section class="panel run-again" data-testid="run-again-panel" aria-label="Run again">
      {state.step === 'checking' ? <p class="notice">Looking for the nao backend…</p> : null}
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
              ({ job }) => setState({ step: 'running', job }),
              (error: unknown) => setState({ ...state, error: messageOf(error) }),
            );
          }}
        >
          <p>
            Run {props.tests.length === 1 ? <strong>{props.tests[0]}</strong> : `${props.tests.length} tests`}{' '}
            again through <code>{state.status.backendUrl}</code> as {state.status.user}, on:
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
        <p class="notice" role="status" data-testid="run-again-progress">
          Running… {state.job.finished} of {countText(state.job.total, 'run')} finished.
        </p>
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
