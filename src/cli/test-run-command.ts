import path from 'node:path';
import { checkBackend, createBackendClient, normalizeBackendUrl } from '../client/index.js';
import { configuredDatabaseNames, type NaoConfig } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { parseModelString, resolvePrices, UnsupportedProviderError } from '../llm/index.js';
import { createRecorder } from '../recording/index.js';
import type { ShardRecord } from '../results/index.js';
import {
  consoleReporter,
  endSuite,
  jsonReporter,
  junitReporter,
  type Reporter,
} from '../results/reporters/index.js';
import { shardTests, suiteFingerprint } from '../shard/index.js';
import { runTestSuite } from '../suite/index.js';
import { formatProblems, selectTests, type TestCase, testDatabaseProblems } from '../test-files/index.js';
import {
  openLocalClient,
  type ReferenceCheck,
  type TestRunClient,
  withoutFailedReferences,
} from '../test-run/index.js';
import type { CommandAction } from './command-spec.js';
import type { CliDependencies } from './dependencies.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';
import { type LastFailed, readLastFailed } from './last-failed.js';
import { type LoadedProject, loadProjectConfig, loadProjectTests, projectTestsDir } from './load-project.js';
import { openBackendSession } from './login-command.js';
import { type RawTestRunFlags, resolveTestRunOptions, type TestRunOptions } from './test-run-options.js';
import { NAO_VERSION } from './version.js';

/**
 * The first runs start this far apart rather than all at once: dozens of runs started in the
 * same instant keep the whole first wave waiting on one another (and burst a provider's rate
 * limit). 4 ms × 50 slots spreads the first calls over one typical model call.
 */
const START_SPACING_MS = 4;

/** `nao test` (= `nao test run`): runs the suite, reports it, and exits 0 only when every run passed. */
export const runTests: CommandAction<CliDependencies> = async ({ io, flags, deps }) => {
  const config = await loadProjectConfig(io);
  let settings = resolveTestRunOptions({ flags: flags as RawTestRunFlags, config, env: io.env });
  // --last-failed: the models are those of the failed pairs (or the -m ones among them).
  const rerun = settings.lastFailed === null ? null : await failedPairs(settings, config, io);
  if (rerun?.pairs.length === 0) {
    const models = settings.modelsGiven ? ` for ${settings.models.join(', ')}` : '';
    io.stdout.write(`Nothing failed in ${rerun.label}${models}: no run to repeat.\n`);
    return EXIT.ok;
  }
  if (rerun !== null) settings = { ...settings, models: [...new Set(rerun.pairs.map((pair) => pair.model))] };
  for (const model of settings.models) checkModel(model, config, io);
  if (settings.judgeModel !== null)
    parseModelString(settings.judgeModel, { providers: config.llm.providers });
  if (settings.maxCostUsd !== undefined) checkPricedForMaxCost({ settings, config });
  // In this process, the databases and the sandbox engine open while the test files are read
  // (a backend session is only opened for a valid suite: it may ask for a password).
  const opening = settings.local ? openClient({ settings, config, io, deps }) : undefined;
  // Its failure is reported when awaited below, after the test files' problems, not as an
  // unhandled rejection while they are read.
  opening?.catch(() => undefined);
  let project: LoadedProject;
  let tests: TestCase[];
  let shard: ShardRecord | undefined;
  try {
    project = await loadProjectTests(io, config);
    tests = selectTests({ tests: project.tests, select: settings.select });
    // As validate decides it: a test whose database is undecided would fail after its agent was paid.
    const undecided = testDatabaseProblems({ tests, configured: configuredDatabaseNames(config) });
    if (undecided.length > 0) {
      throw new UsageError({
        code: 'INVALID_TEST_FILES',
        message: `Invalid test files in ${project.testsDir} — nothing was run:\n${formatProblems(undecided)}\nRun \`nao test validate\` after fixing them.`,
      });
    }
    if (rerun !== null) tests = rerunTests({ tests, rerun, io, quiet: settings.quiet });
    if (tests.length > 0 && settings.shard !== null) {
      // The fingerprint covers the whole selection, so `nao test merge` can check the shards add up to it.
      const suite = await suiteFingerprint({
        tests,
        configPath: config.configPath,
        models: settings.models,
        repeat: settings.repeat,
      });
      shard = { ...settings.shard, suite };
      const all = tests.length;
      tests = shardTests({ tests, shard: settings.shard, fileOf: (test) => test.relativePath });
      if (!settings.quiet)
        io.stdout.write(`Shard ${shard.index}/${shard.count}: ${tests.length} of ${all} tests.\n`);
    }
  } catch (error) {
    closeUnused(opening);
    throw error;
  }
  if (rerun !== null && tests.length === 0) {
    closeUnused(opening);
    io.stdout.write(
      `None of the failed tests of ${rerun.label} is among the tests to run: nothing to repeat.\n`,
    );
    return EXIT.ok;
  }
  if (tests.length === 0 && shard === undefined) {
    closeUnused(opening);
    io.stderr.write(
      `No tests found in ${project.testsDir}. Create one with \`nao init\` or see docs/test-files.md.\n`,
    );
    return EXIT.usage;
  }

  let client = await (opening ?? openClient({ settings, config, io, deps }));
  client = await checkReferencesBeforeRuns({ client, tests, io, config, signal: deps.interrupt });
  if (settings.judgeModel !== null && tests.some((test) => test.expectedAnswer !== null)) {
    // Like the models under test, a judge without its API key stops the command before any run.
    try {
      client.prepareModel?.(settings.judgeModel);
    } catch (error) {
      await client.close();
      throw error;
    }
  }
  const terminal = consoleReporter({
    stdout: io.stdout,
    stderr: io.stderr,
    total: runCount({ tests, models: settings.models, rerun }) * settings.repeat,
    models: settings.models,
    plan: { tests: tests.length, repeat: settings.repeat, threads: settings.threads },
    color: flags.color !== false && io.stdout.isTTY === true,
    verbose: settings.verbose,
    quiet: settings.quiet,
  });
  let suite: Awaited<ReturnType<typeof runTestSuite>>;
  try {
    terminal.onSuiteStart?.();
    suite = await runTestSuite({
      tests,
      models: settings.models,
      repeat: settings.repeat,
      ...(rerun === null ? {} : { include: (test, model) => rerun.keys.has(pairKeyOf(test.name, model)) }),
      client,
      comparison: project.config.test.comparison,
      judgeModel: settings.judgeModel,
      ...(project.config.test.statsCluster ? { cluster: project.config.test.statsCluster } : {}),
      threads: settings.threads,
      startSpacingMs: START_SPACING_MS,
      timeoutMs: settings.timeoutMs,
      maxCostUsd: settings.maxCostUsd,
      failFast: settings.failFast,
      signal: deps.interrupt,
      onEvent: (event) => {
        if (event.type === 'finish') terminal.onRunFinished?.(event.result);
        else terminal.onSuiteStopped?.(event.reason);
      },
      record: {
        command: redactedCommand(io),
        naoVersion: NAO_VERSION,
        shard,
        ...(settings.select.length > 0 || rerun !== null
          ? {
              selection: {
                select: settings.select,
                ...(rerun === null ? {} : { last_failed: rerun.label }),
              },
            }
          : {}),
      },
      now: deps.now,
    });
  } finally {
    terminal.close();
    await client.close();
  }
  const { file, finishedAt } = suite;
  const results = file.results;
  // The files first: a failure to print must not lose the results.
  const reporters: Reporter[] = [
    jsonReporter({ outputsDir: path.join(project.testsDir, 'outputs'), now: finishedAt, cwd: io.cwd }),
    ...(settings.junitPath === undefined ? [] : [junitReporter({ path: settings.junitPath, cwd: io.cwd })]),
    terminal,
  ];
  for (const notice of await endSuite(reporters, file)) io.stdout.write(`${notice}\n`);

  if (suite.stoppedBy === 'interrupted') return EXIT.interrupted;
  const unverified = results.filter((result) => result.status === 'unverified').length;
  if (unverified > 0) {
    io.stderr.write(
      `Warning: ${unverified} run(s) unverified: their tests have no sql, expected_answer or assertions, so nothing was checked` +
        `${settings.strict ? ' (--strict: this fails the run)' : ''}.\n`,
    );
  }
  const broken = results.some((result) => result.status === 'failed' || result.status === 'error');
  const skipped = results.some((result) => result.status === 'skipped');
  return broken || skipped || (settings.strict && unverified > 0) ? EXIT.failed : EXIT.ok;
};

type Rerun = LastFailed & { keys: Set<string> };

function pairKeyOf(name: string, model: string): string {
  return JSON.stringify([name, model]);
}

/** `--last-failed`: the failed and errored pairs to rerun, narrowed to the `-m` models when given. */
async function failedPairs(settings: TestRunOptions, config: NaoConfig, io: CliIO): Promise<Rerun> {
  const found = await readLastFailed({
    file: settings.lastFailed?.file ?? null,
    outputsDir: path.join(projectTestsDir(config), 'outputs'),
    projectDir: config.projectDir,
    cwd: io.cwd,
  });
  const pairs = settings.modelsGiven
    ? found.pairs.filter((pair) => settings.models.includes(pair.model))
    : found.pairs;
  return { ...found, pairs, keys: new Set(pairs.map((pair) => pairKeyOf(pair.name, pair.model))) };
}

/** The selected tests that failed; a failed test that no longer exists is said, not an error. */
function rerunTests(options: { tests: TestCase[]; rerun: Rerun; io: CliIO; quiet: boolean }): TestCase[] {
  const { rerun, io } = options;
  const failedNames = new Set(rerun.pairs.map((pair) => pair.name));
  const tests = options.tests.filter((test) => failedNames.has(test.name));
  const present = new Set(tests.map((test) => test.name));
  const gone = [...failedNames].filter((name) => !present.has(name));
  if (gone.length > 0) {
    io.stderr.write(
      `Warning: ${gone.length} failed test(s) of ${rerun.label} are not among the tests to run (removed, renamed or not selected): ${gone.join(', ')}.\n`,
    );
  }
  const runs = runCount({ tests, models: [...new Set(rerun.pairs.map((pair) => pair.model))], rerun });
  if (!options.quiet && tests.length > 0)
    io.stdout.write(`Rerunning the ${runs} failed (test, model) pair(s) of ${rerun.label}.\n`);
  return tests;
}

/** The (test, model) pairs that will run, before --repeat. */
function runCount(options: {
  tests: readonly TestCase[];
  models: readonly string[];
  rerun: Rerun | null;
}): number {
  const { tests, models, rerun } = options;
  if (rerun === null) return tests.length * models.length;
  return tests.reduce(
    (count, test) => count + models.filter((model) => rerun.keys.has(pairKeyOf(test.name, model))).length,
    0,
  );
}

/**
 * A bad model string stops the command; a provider of the original nao that nao cannot call
 * is said once here and fails only the runs of that model.
 */
function checkModel(model: string, config: NaoConfig, io: CliIO): void {
  try {
    parseModelString(model, { providers: config.llm.providers });
  } catch (error) {
    if (!(error instanceof UnsupportedProviderError)) throw error;
    io.stderr.write(`Warning: ${error.message} Its runs are errors; the other models run.\n`);
  }
}

/**
 * Plans every selected test's reference SQL before the first model call (in this process; a
 * backend checks its own): a test whose SQL cannot run gets error runs that carry the engine's
 * message and cost nothing, and the other tests run.
 */
async function checkReferencesBeforeRuns(options: {
  client: TestRunClient;
  tests: readonly TestCase[];
  io: CliIO;
  config: NaoConfig;
  signal: AbortSignal | undefined;
}): Promise<TestRunClient> {
  const { client, io } = options;
  let checks: ReadonlyMap<string, ReferenceCheck>;
  try {
    checks =
      client.checkReferences === undefined
        ? await checkReferencesHere(options)
        : await client.checkReferences(options.tests, options.signal);
  } catch (error) {
    await client.close();
    throw error;
  }
  for (const [file, check] of checks) {
    if (check.status === 'invalid')
      io.stderr.write(
        `Warning: ${file}: its runs are errors and call no model (the others run): ${check.error}\n`,
      );
  }
  return withoutFailedReferences(client, checks);
}

/**
 * Through a backend, the reference SQL is planned on the databases of this project's config
 * as this machine reaches them (the backend serves the same project): one that cannot be
 * opened here is left to the backend's run.
 */
async function checkReferencesHere(options: {
  tests: readonly TestCase[];
  config: NaoConfig;
  signal: AbortSignal | undefined;
}): Promise<ReadonlyMap<string, ReferenceCheck>> {
  if (!options.tests.some((test) => test.sql !== null)) return new Map();
  // Loaded here only, as validate does: the database engines are heavy.
  const { checkReferences, openReferenceDatabases } = await import('../test-run/reference-check.js');
  const opened = await openReferenceDatabases(options.config);
  try {
    return await checkReferences({
      tests: options.tests,
      databases: opened.databases,
      unavailable: opened.unavailable,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } finally {
    await opened.close();
  }
}

/**
 * `--max-cost` counts what the runs cost, and a model with no price costs "unknown", which the
 * budget cannot add up: it would never stop. Such a model stops the command before any run.
 */
function checkPricedForMaxCost(options: { settings: TestRunOptions; config: NaoConfig }): void {
  const { settings, config } = options;
  const models = [...settings.models, ...(settings.judgeModel === null ? [] : [settings.judgeModel])];
  for (const model of new Set(models)) {
    let parsed: ReturnType<typeof parseModelString>;
    try {
      parsed = parseModelString(model, { providers: config.llm.providers });
    } catch (error) {
      // A provider nao cannot call: its runs are errors that spend nothing.
      if (error instanceof UnsupportedProviderError) continue;
      throw error;
    }
    const priced = resolvePrices({ provider: parsed.provider, modelId: parsed.modelId, config });
    if (priced.prices !== null) continue;
    throw new UsageError({
      code: 'MAX_COST_UNPRICED_MODEL',
      message:
        `--max-cost ${settings.maxCostUsd} cannot be kept: ${model} has no price ` +
        `(${priced.warning === null ? 'nao_config.yaml declares none and the built-in price table does not know the model' : 'its declared costs are incomplete'}), ` +
        `so what it spends would not count. Declare its prices in nao_config.yaml under llm.providers[].models[].costs ` +
        `(input_no_cache and output, USD per million tokens), or run without --max-cost.`,
    });
  }
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
  deps: CliDependencies;
}): Promise<TestRunClient> {
  const { settings, config, io, deps } = options;
  if (!settings.local) {
    const backendUrl = normalizeBackendUrl(settings.backendUrl);
    await checkBackend({ backendUrl });
    const session = await openBackendSession({
      backendUrl,
      credentials: settings.credentials,
      io,
      signal: deps.interrupt,
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
  const client = await openLocalClient({
    config,
    env: io.env,
    warn: (line) => io.stderr.write(`${line}\n`),
    recording: recorder,
    fetch: deps.fetch,
  });
  try {
    // Resolve every model before the first run: a missing key should stop the command, not fail each run.
    // A provider nao cannot call (said once, above) fails only its own runs.
    for (const model of settings.models) {
      try {
        client.prepareModel(model);
      } catch (error) {
        if (!(error instanceof UnsupportedProviderError)) throw error;
      }
    }
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
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
