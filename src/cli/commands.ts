/**
 * Every `nao` command, its arguments and flags. Only light modules are imported here: each
 * command's code loads when it runs.
 */
import { DEFAULT_BACKEND_URL, DEFAULT_HOST, DEFAULT_PORT } from '../backend/listen-defaults.js';
import { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT } from '../viewer/listen-defaults.js';
import type { CommandSpec, OptionSpec } from './command-spec.js';
import type { CliDependencies } from './dependencies.js';

const backendOption: OptionSpec = {
  flags: '--backend <url>',
  help: `the nao backend (default: BACKEND_URL, else ${DEFAULT_BACKEND_URL})`,
};
const selectOption: OptionSpec = {
  flags: '-s, --select <names>',
  help: 'tests, folders or file stems to run (comma-separated, repeatable)',
  readme:
    'tests by name, file stem or folder under `tests/` (comma-separated, repeatable); an unknown one is an error listing the tests',
  repeatable: true,
};

/** The flags of `nao test` (= `nao test run`); the README's `nao test` table is made from them. */
export const TEST_RUN_OPTIONS: readonly OptionSpec[] = [
  {
    flags: '-m, --model <provider:model_id>',
    help: 'model to test, repeatable (default: test.models, else openai:gpt-4.1)',
    readme: 'model to test, repeatable; default `test.models`, else `openai:gpt-4.1`',
    repeatable: true,
  },
  {
    flags: '-t, --threads <n>',
    help: 'test runs executed in parallel (default: test.threads, else 1)',
    readme: 'runs at once; default `test.threads`, else 1',
  },
  selectOption,
  {
    flags: '--judge-model <provider:model_id>',
    help: 'model that grades the answers of tests with expected_answer (default: test.judge_model, else the model under test)',
    readme:
      'grades the answers of tests with `expected_answer`; default `test.judge_model`, else the model under test',
  },
  { flags: '--local', help: 'run the agent in this process: no backend, no log-in' },
  {
    ...backendOption,
    readme: 'run through a nao backend (default `BACKEND_URL`, else `http://localhost:5005`)',
  },
  { flags: '-u, --username <email>', help: 'log-in for the backend (or NAO_USERNAME)' },
  {
    flags: '--password <password>',
    help: 'password for the backend (or NAO_PASSWORD, preferred: it stays out of shell history)',
  },
  {
    flags: '--record',
    help: 'save every model exchange to tests/recordings/ (implies --local)',
  },
  {
    flags: '--replay',
    help: 'answer every model call from tests/recordings/: no network, no API key (implies --local)',
  },
  {
    flags: '--repeat <k>',
    help: 'run each test K times per model and report pass@k and flaky tests (default: 1)',
    readme: 'run each (test, model) K times: per-test passes c/K, pass@k, pass^k, flaky marks',
  },
  {
    flags: '--timeout <seconds>',
    help: 'wall-clock limit per run (default: test.timeout_s, else 900); a run past it is an error',
    readme:
      'per-run limit; default `test.timeout_s`, else 900 (15 minutes); a run past it is an error, the others go on',
  },
  {
    flags: '--max-cost <usd>',
    help: 'stop starting new runs once this many USD were spent; the rest are skipped (every model needs a price)',
    readme:
      'stop starting runs once this much was spent (agent, extraction and judge); the rest are skipped. A model with no price stops the command first (exit 2)',
  },
  {
    flags: '-x, --fail-fast',
    help: 'stop starting new runs after the first failure or error (default: test.fail_fast)',
    readme: 'stop starting new runs after the first failure or error; default `test.fail_fast`',
  },
  {
    flags: '--shard <i/n>',
    help: 'run only slice i of n of the tests (CI matrices); merge the files with `nao test merge`',
    readme:
      'run slice i of n of the selected tests (by test, the same slice on every machine); `nao test merge` combines the shards',
  },
  {
    flags: '--last-failed [file]',
    help: 'rerun only the (test, model) pairs that failed or errored in the latest complete results file, or in <file>',
    readme:
      'rerun only the (test, model) pairs that failed or errored in the latest complete results file (or `<file>`); nothing failed: exit 0',
  },
  {
    flags: '--junit <path>',
    help: 'also write a JUnit XML report there',
    readme: 'also write JUnit XML (one testsuite per model)',
  },
  {
    flags: '--strict',
    help: 'exit 1 when a test is unverified (it has no sql, expected_answer or assertions)',
    readme: 'unverified runs (tests with no `sql`, `expected_answer` or assertions) fail the run',
  },
  { flags: '--verbose', help: 'print prompt, response, tool calls and extraction SQL of each run' },
  {
    flags: '-q, --quiet',
    help: 'print only the runs that did not pass (why, with a short diff) and the final line',
  },
  { flags: '--no-color', help: 'plain output without colours' },
];

/** The flags of `nao test merge`; the README's table is made from them. */
export const TEST_MERGE_OPTIONS: readonly OptionSpec[] = [
  {
    flags: '-o, --output <file>',
    help: 'where to write the merged file (default: tests/outputs/results_<timestamp>.json)',
    readme: 'where to write the merged results file; default `tests/outputs/results_<timestamp>.json`',
  },
  {
    flags: '--allow-partial',
    help: 'merge even when shards are missing; their runs are recorded as skipped',
  },
  {
    flags: '--remove-shards',
    help: 'delete the shard files once the merged file is written, so tests/outputs/ holds the whole run only',
  },
  {
    flags: '--junit <path>',
    help: 'also write JUnit XML of the merged file',
    readme: 'also write JUnit XML of the merged runs',
  },
  { flags: '-q, --quiet', help: 'print only the line naming the merged file' },
];

const credentialsOptions: readonly OptionSpec[] = [
  {
    flags: '-u, --username <email>',
    help: 'log in with this email instead of the browser (or NAO_USERNAME)',
  },
  {
    flags: '--password <password>',
    help: 'the password for -u (or NAO_PASSWORD, preferred: it stays out of shell history)',
  },
];

/** Commands that only group others; `nao test` runs its default, `nao test run`. */
export const COMMAND_GROUPS: Record<string, string> = {
  test: 'Run the unit tests of tests/ against the agent, or inspect tests and results.',
};

export const COMMANDS: readonly CommandSpec<CliDependencies>[] = [
  {
    path: ['init'],
    description:
      'Scaffold a nao project: nao_config.yaml, RULES.md and tests/ with one sample test. Never overwrites files.',
    arguments: [{ name: '[folder]', help: 'project folder to create or complete', default: '.' }],
    load: async () => (await import('./init-command.js')).runInit,
  },
  {
    path: ['test', 'run'],
    description: 'Run the tests against the agent with one or more models (the default of `nao test`).',
    isDefault: true,
    options: TEST_RUN_OPTIONS,
    helpAfter:
      'Exit codes: 0 every selected test passed · 1 a run failed or errored · 2 could not start · 130 interrupted.\n' +
      'Results are saved to tests/outputs/results_<timestamp>.json.',
    load: async () => (await import('./test-run-command.js')).runTests,
  },
  {
    path: ['test', 'list'],
    description: 'List the tests of tests/: name, file and prompt.',
    options: [
      { ...selectOption, help: 'only these tests, folders or file stems (comma-separated, repeatable)' },
    ],
    load: async () => (await import('./test-inspect-commands.js')).listTests,
  },
  {
    path: ['test', 'show'],
    description: 'Show selected tests in full: prompt, reference SQL, database, assertions, tolerances.',
    arguments: [{ name: '<selection>', help: 'test names, folders or file stems (comma-separated)' }],
    options: [
      { flags: '--sql-only', help: 'print only the reference SQL' },
      { flags: '--prompt-only', help: 'print only the prompt' },
    ],
    load: async () => (await import('./test-inspect-commands.js')).showTests,
  },
  {
    path: ['test', 'validate'],
    description:
      "Check nao_config.yaml, every test file and each test's reference SQL (planned on its database, no rows read); list every problem (exit 2) or count the tests (exit 0).",
    options: [
      { flags: '--offline', help: "do not connect to the databases: skip checking the tests' reference SQL" },
    ],
    load: async () => (await import('./test-inspect-commands.js')).validateProject,
  },
  {
    path: ['test', 'summary'],
    description: 'Print the tables of a saved results file (default: the latest in tests/outputs/).',
    arguments: [{ name: '[file]', help: 'a results_*.json file' }],
    options: [
      {
        flags: '--json',
        help: 'print summary and by_model (with their 95% intervals), comparisons and repeats as JSON instead of tables',
      },
    ],
    load: async () => (await import('./test-results-commands.js')).printSummary,
  },
  {
    path: ['test', 'diff'],
    description:
      'Compare two results files: regressions, fixes, unchanged, added, removed, and per model whether the change ' +
      'is significant or within noise. Exits 1 on a regression (with --fail-on significant: on a significant drop).',
    arguments: [
      { name: '[before]', help: 'the earlier results file' },
      { name: '[after]', help: 'the later results file' },
    ],
    options: [
      {
        flags: '--last',
        help: 'compare the latest two complete runs of the same selection (the default without files): shards, reruns, interrupted and stopped runs are passed over',
      },
      { flags: '--model <model>', help: 'only this model' },
      { flags: '--test <name>', help: 'only this test' },
      {
        flags: '--fail-on <when>',
        help: 'regression (default): exit 1 when any test stopped passing; significant: exit 1 only when a model dropped beyond noise (paired 95% interval)',
      },
      { flags: '--no-fail', help: 'exit 0 even when there are regressions' },
    ],
    load: async () => (await import('./test-results-commands.js')).diffResults,
  },
  {
    path: ['test', 'plan'],
    description:
      "How likely the suite is to detect a change of N points in a model's pass rate, and how many tests or repeats give 80%.",
    arguments: [{ name: '[file]', help: 'the results file to plan from (default: the latest)' }],
    options: [
      { flags: '--detect <points>', help: 'the change in pass rate to detect, in points (default 5)' },
    ],
    load: async () => (await import('./test-results-commands.js')).planTests,
  },
  {
    path: ['test', 'merge'],
    description:
      'Merge the results files of `nao test --shard i/n` runs into one results file, as if the suite had run once. ' +
      'Exits 1 when a merged run failed, errored or was skipped.',
    arguments: [{ name: '<files...>', help: 'the results_*.json file of every shard' }],
    options: TEST_MERGE_OPTIONS,
    helpAfter:
      'Refused (exit 2): shards of different suites (tests, nao_config.yaml, models, --repeat), overlapping shards, ' +
      'and a missing shard unless --allow-partial.',
    load: async () => (await import('./test-merge-command.js')).mergeResults,
  },
  {
    path: ['test', 'server'],
    description: `Start the results viewer (http://${DEFAULT_VIEWER_HOST}:${DEFAULT_VIEWER_PORT}) over tests/outputs/; Ctrl-C stops it.`,
    options: [
      {
        flags: '-p, --port <port>',
        help: 'port to listen on (0 picks a free one)',
        default: String(DEFAULT_VIEWER_PORT),
      },
      {
        flags: '--host <host>',
        help: 'address to listen on; 0.0.0.0 makes the results readable from other machines',
        default: DEFAULT_VIEWER_HOST,
      },
      { flags: '--no-open', help: 'do not open a browser' },
      {
        ...backendOption,
        help: 'the nao backend that Run again goes through (default: BACKEND_URL; without either, Run again runs the tests in this process, like nao test --local)',
      },
    ],
    load: async () => (await import('./test-server-command.js')).serveResults,
  },
  {
    path: ['chat'],
    description:
      'Start the nao backend for the project in this folder: the HTTP API, sign-up and log-in pages, and the ' +
      'CLI log-in approval. Accounts live in .nao/ (or PostgreSQL when NAO_DATABASE_URL is set).',
    options: [
      { flags: '--port <port>', help: 'port to listen on (0: any free port)', default: String(DEFAULT_PORT) },
      {
        flags: '--host <host>',
        help: 'address to listen on (0.0.0.0 exposes it to the network)',
        default: DEFAULT_HOST,
      },
    ],
    load: async () => (await import('./chat-command.js')).serveBackend,
  },
  {
    path: ['login'],
    description:
      'Log in to a nao backend: approve in the browser, or pass -u/--password (or NAO_USERNAME / NAO_PASSWORD). ' +
      'The session is saved in ~/.nao/auth.json.',
    options: [backendOption, ...credentialsOptions],
    load: async () => (await import('./login-command.js')).runLogin,
  },
  {
    path: ['logout'],
    description: 'Revoke the session of a nao backend on the server and remove it from ~/.nao/auth.json.',
    options: [backendOption],
    load: async () => (await import('./login-command.js')).runLogout,
  },
];
