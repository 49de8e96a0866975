import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { checkBackend, createBackendClient, normalizeBackendUrl } from '../client/index.js';
import type { NaoConfig } from '../config/index.js';
import { PRICE_TABLE_VERSION, parseModelString } from '../llm/index.js';
import { createLocalClient, openProjectRuntime } from '../pipeline/index.js';
import { createRecorder } from '../recording/index.js';
import {
  buildResultsFile,
  type RunResult,
  renderReport,
  toJUnitXml,
  writeResultsFile,
} from '../report/index.js';
import { LiveProgress } from '../reporters/live-progress.js';
import {
  errorResult,
  executeRun,
  planRuns,
  runSuite,
  skippedResult,
  spentUsd,
  type TestRunClient,
} from '../scheduler/index.js';
import type { TestCase } from '../test-files/index.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';
import {
  type LoadedProject,
  loadProjectConfig,
  loadProjectTests,
  projectTestsDir,
  selectProjectTests,
} from './load-project.js';
import { openBackendSession } from './login-command.js';
import { type RawTestRunFlags, resolveTestRunOptions, type TestRunOptions } from './test-run-options.js';
import { NAO_VERSION } from './version.js';

/**
 * The first runs start this far apart rather than all at once: with -t 50, a simultaneous
 * start kept the whole first wave waiting on itself (and bursts a provider's rate limit). The
 * last of N slots starts (N - 1) × this late, and since every slot then runs about as many
 * runs, the suite ends that much later. Measured with -t 50 and 200 ms model calls: 0 ms lost
 * more to the burst than it saved; 3 and 4 ms finished alike, 0.14 s (1%) sooner than 6 ms, in
 * 6 alternating pairs. 4 ms × 50 spreads the starts over one 200 ms call.
 */
const START_SPACING_MS = 4;

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export interface TestRunDependencies {
  /** Ctrl-C / SIGTERM: aborts this signal. Tests pass their own. */
  interrupt?: AbortSignal;
  /** Transport under the provider packages (tests point it at a wire-protocol server). */
  fetch?: typeof globalThis.fetch;
  now?: () => Date;
}

/** `nao test` (= `nao test run`): runs the suite and reports it. */
export function registerTestRunCommand(
  test: Command,
  io: CliIO,
  setExit: (code: number) => void,
  deps: TestRunDependencies = {},
): void {
  test
    .command('run', { isDefault: true })
    .description('Run the tests against the agent with one or more models (the default of `nao test`).')
    .option(
      '-m, --model <provider:model_id>',
      'model to test, repeatable (default: test.models, else openai:gpt-4.1)',
      collect,
    )
    .option('-t, --threads <n>', 'test runs executed in parallel (default: test.threads, else 1)')
    .option(
      '-s, --select <names>',
      'tests, folders or file stems to run (comma-separated, repeatable)',
      collect,
    )
    .option('-u, --username <email>', 'log-in for the backend (or NAO_USERNAME)')
    .option(
      '--password <password>',
      'password for the backend (or NAO_PASSWORD, preferred: it stays out of shell history)',
    )
    .option('--local', 'run the agent in this process: no backend, no log-in')
    .option('--record', 'save every model exchange to tests/recordings/ (implies --local)')
    .option(
      '--replay',
      'answer every model call from tests/recordings/: no network, no API key (implies --local)',
    )
    .option('--backend <url>', 'the nao backend (default: BACKEND_URL, else http://localhost:5005)')
    .option('--repeat <k>', 'run each test K times per model and report pass@k and flaky tests (default: 1)')
    .option('--timeout <seconds>', 'wall-clock limit per run; a run past it is an error')
    .option('--max-cost <usd>', 'stop starting new runs once this many USD were spent; the rest are skipped')
    .option('--fail-fast', 'stop starting new runs after the first failure or error')
    .option('--junit <path>', 'also write a JUnit XML report there')
    .option('--strict', 'exit 1 when a test is unverified (it has neither sql nor assertions)')
    .option('--verbose', 'print prompt, response, tool calls and extraction SQL of each run')
    .option('-q, --quiet', 'print only the tables')
    .option('--no-color', 'plain output without colours')
    .addHelpText(
      'after',
      '\nExit codes: 0 every selected test passed · 1 a run failed or errored · 2 could not start · 130 interrupted.\n' +
        'Results are saved to tests/outputs/results_<timestamp>.json.',
    )
    .action(async (flags: RawTestRunFlags) => {
      setExit(await runTests({ io, flags, deps }));
    });
}

async function runTests(options: {
  io: CliIO;
  flags: RawTestRunFlags;
  deps: TestRunDependencies;
}): Promise<number> {
  const { io, deps } = options;
  const config = await loadProjectConfig(io);
  const settings = resolveTestRunOptions({ flags: options.flags, config, env: io.env });
  for (const model of settings.models) parseModelString(model, { providers: config.llm.providers });
  // In this process, the databases and the sandbox engine open while the test files are read
  // (a backend session is only opened for a valid suite: it may ask for a password).
  const opening = runsInProcess(settings) ? openClient({ settings, config, io, deps }) : undefined;
  // Its failure is reported when awaited below, after the test files' problems, not as an
  // unhandled rejection while they are read.
  opening?.catch(() => undefined);
  let project: LoadedProject;
  let tests: TestCase[];
  try {
    project = await loadProjectTests(io, config);
    tests = selectProjectTests(project, settings.select);
  } catch (error) {
    closeUnused(opening);
    throw error;
  }
  if (tests.length === 0) {
    closeUnused(opening);
    io.stderr.write(
      `No tests found in ${project.testsDir}. Create one with \`nao init\` or see the README.\n`,
    );
    return EXIT.usage;
  }

  const client = await (opening ?? openClient({ settings, config, io, deps }));
  const startedAt = deps.now?.() ?? new Date();
  const runs = planRuns({ tests, models: settings.models, repeat: settings.repeat });
  const color = options.flags.color !== false && io.stdout.isTTY === true;
  const progress = settings.quiet
    ? null
    : new LiveProgress({
        out: io.stdout,
        interactive: io.stdout.isTTY === true,
        total: runs.length,
        color,
        verbose: settings.verbose,
      });
  let outcome: Awaited<ReturnType<typeof runSuite<TestCase, RunResult>>>;
  try {
    outcome = await runSuite({
      runs,
      concurrency: settings.threads,
      startSpacingMs: START_SPACING_MS,
      ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
      ...(settings.maxCostUsd === undefined ? {} : { maxCostUsd: settings.maxCostUsd }),
      failFast: settings.failFast,
      ...(deps.interrupt === undefined ? {} : { signal: deps.interrupt }),
      execute: (run, signal) =>
        executeRun({ run, client, comparison: project.config.test.comparison, signal }),
      spentUsd,
      skipped: skippedResult,
      crashed: (run, error) =>
        errorResult({ run, message: error instanceof Error ? error.message : String(error), durationMs: 0 }),
      onEvent: (event) => {
        if (event.type === 'finish') progress?.finish(event.result, spentUsd(event.result));
        if (event.type === 'stop' && !settings.quiet) io.stderr.write(`${stopMessage(event.reason)}\n`);
      },
    });
  } finally {
    progress?.end();
    await client.close();
  }

  const results = outcome.results;
  const finishedAt = deps.now?.() ?? new Date();
  const file = buildResultsFile({
    results,
    now: finishedAt,
    startedAt,
    models: settings.models,
    repeat: settings.repeat,
    command: redactedCommand(io),
    naoVersion: NAO_VERSION,
    priceTableVersion: PRICE_TABLE_VERSION,
    interrupted: outcome.stoppedBy === 'interrupted',
  });
  const saved = await writeResultsFile({
    outputsDir: path.join(project.testsDir, 'outputs'),
    file,
    now: finishedAt,
  });
  if (settings.junitPath !== undefined) {
    const junitPath = path.resolve(io.cwd, settings.junitPath);
    await mkdir(path.dirname(junitPath), { recursive: true });
    await writeFile(junitPath, toJUnitXml({ file }));
  }

  io.stdout.write(
    `\n${renderReport({ results, modelOrder: settings.models, width: io.stdout.columns ?? 120, color })}\n`,
  );
  const replayed = results.filter((result) => result.details.replayed).length;
  if (replayed > 0) {
    io.stdout.write(
      `${replayed} run(s) replayed from tests/recordings/: no model was called; tokens and cost are the recorded ones.\n`,
    );
  }
  io.stdout.write(`Results saved to ${path.relative(io.cwd, saved) || saved}\n`);
  if (settings.junitPath !== undefined) io.stdout.write(`JUnit report written to ${settings.junitPath}\n`);

  if (outcome.stoppedBy === 'interrupted') return EXIT.interrupted;
  const unverified = results.filter((result) => result.status === 'unverified').length;
  if (unverified > 0) {
    io.stderr.write(
      `Warning: ${unverified} run(s) unverified: their tests have neither sql nor assertions, so nothing was checked` +
        `${settings.strict ? ' (--strict: this fails the run)' : ''}.\n`,
    );
  }
  const broken = results.some((result) => result.status === 'failed' || result.status === 'error');
  const skipped = results.some((result) => result.status === 'skipped');
  return broken || skipped || (settings.strict && unverified > 0) ? EXIT.failed : EXIT.ok;
}

/** `--local`, or recording and replay, which always run the agent in this process. */
function runsInProcess(settings: TestRunOptions): boolean {
  return settings.local || settings.recording !== null;
}

/** A client opened for a run that will not happen; its own failure is moot next to the reason. */
function closeUnused(opening: Promise<TestRunClient> | undefined): void {
  void opening?.then(
    (client) => client.close(),
    () => undefined,
  );
}

async function openClient(options: {
  settings: TestRunOptions;
  config: NaoConfig;
  io: CliIO;
  deps: TestRunDependencies;
}): Promise<TestRunClient> {
  const { settings, config, io, deps } = options;
  if (!runsInProcess(settings)) {
    const backendUrl = normalizeBackendUrl(settings.backendUrl);
    await checkBackend({ backendUrl });
    const session = await openBackendSession({
      backendUrl,
      credentials: settings.credentials,
      io,
      ...(deps.interrupt === undefined ? {} : { signal: deps.interrupt }),
    });
    // Log in before the first run, so a browser prompt or a wrong password never interleaves with progress.
    await session.token();
    return createBackendClient({ backendUrl, session });
  }
  const recorder =
    settings.recording === null
      ? undefined
      : createRecorder({
          recordingsDir: path.join(projectTestsDir(config), 'recordings'),
          mode: settings.recording,
          displayDir: config.projectDir,
          ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
          ...(deps.now === undefined ? {} : { now: deps.now }),
        });
  const fetch = recorder?.fetch ?? deps.fetch;
  const runtime = await openProjectRuntime({
    config,
    env: io.env,
    ...(fetch === undefined ? {} : { fetch }),
    allowMissingKey: recorder?.isReplaying === true,
  });
  try {
    // Resolve every model before the first run: a missing key should stop the command, not fail each run.
    for (const model of settings.models) runtime.model(model);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const client = createLocalClient(runtime, recorder === undefined ? {} : { recording: recorder });
  if (recorder === undefined) return client;
  return {
    // Each run's model calls are keyed by (test, model, attempt, step) in its recording file.
    runTest: (options) =>
      recorder.withRun({ ...options.run, signal: options.signal }, () => client.runTest(options)),
    close: () => client.close(),
  };
}

function stopMessage(reason: 'budget' | 'fail-fast' | 'interrupted'): string {
  if (reason === 'budget')
    return 'Budget reached (--max-cost): no new runs are started; the rest are recorded as skipped.';
  if (reason === 'fail-fast') return 'A run failed (--fail-fast): no new runs are started.';
  return 'Interrupted: cancelling runs in flight and saving what finished…';
}

/** The command line for the results file, without the password. */
function redactedCommand(io: CliIO): string {
  const argv = io.argv ?? [];
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--password') {
      out.push(arg, '***');
      i++;
    } else if (arg.startsWith('--password=')) out.push('--password=***');
    else out.push(arg);
  }
  return ['nao', ...out].join(' ');
}
