/**
 * JUnit XML for CI test reporters (Jenkins, GitLab, GitHub actions that read JUnit): one
 * `<testsuite>` per model, one `<testcase>` per run, counts that match the cases.
 */
import type { ResultsFile, RunResult, RunStatus } from '../results-file.js';
import { hasRepeats } from '../run-pairs.js';
import { statusOf } from '../run-status.js';
import { orderedModels } from '../summarize.js';

/** Response text kept in `<system-out>`; CI pages choke on megabytes of agent prose. */
export const MAX_SYSTEM_OUT_CHARS = 20_000;
const MAX_MESSAGE_CHARS = 1_000;
const MAX_BODY_CHARS = 50_000;

// Characters XML 1.0 cannot carry at all, even escaped: C0 controls other than tab/LF/CR,
// lone surrogates, U+FFFE and U+FFFF. The u flag makes surrogate pairs one code point.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the allowed set names tab, LF and CR
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI color codes are what we strip
const ANSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]/g;

function xmlChars(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(NOT_XML_CHAR, '');
}

/**
 * Escapes element text: & and < must be, > too so "]]>" can never appear, and \r as a
 * reference because parsers turn a literal CR LF into LF.
 */
export function escapeXmlText(text: string): string {
  return xmlChars(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Escapes an attribute value; line breaks and tabs as character references so they survive parsing. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;');
}

function bounded(text: string, limit: number): string {
  if (text.length <= limit) return text;
  // Never cut a surrogate pair in half.
  let end = limit;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}\n… (${text.length - end} more characters cut)`;
}

function seconds(ms: number): string {
  return (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3);
}

/** The JUnit schema's timestamp: ISO 8601 to the second, no zone (the file has microseconds). */
function junitTimestamp(timestamp: string): string | undefined {
  const match = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.exec(timestamp);
  return match ? match[0] : undefined;
}

function attributes(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
}

/** The count attributes of `<testsuites>` and `<testsuite>`, in the order both print them. */
function countAttributes(runs: readonly RunResult[]) {
  const counts = { tests: runs.length, failures: 0, errors: 0, skipped: 0 };
  let ms = 0;
  for (const run of runs) {
    const status = statusOf(run);
    if (status === 'failed') counts.failures++;
    else if (status === 'error') counts.errors++;
    else if (status === 'unverified' || status === 'skipped') counts.skipped++;
    ms += Number.isFinite(run.duration_ms) ? run.duration_ms : 0;
  }
  return { ...counts, time: seconds(ms) };
}

function failureBody(run: RunResult): string {
  const parts = [run.message];
  const diff = run.details?.diff?.text;
  if (diff) parts.push(diff);
  for (const assertion of run.details?.assertions ?? []) {
    if (!assertion.passed) parts.push(`assertion: ${assertion.message}`);
  }
  return bounded(parts.join('\n\n'), MAX_BODY_CHARS);
}

function outcomeElement(run: RunResult, status: RunStatus): string {
  const message = bounded(run.message, MAX_MESSAGE_CHARS);
  switch (status) {
    case 'passed':
      return '';
    case 'failed':
      return `      <failure${attributes({ message, type: 'failed' })}>${escapeXmlText(failureBody(run))}</failure>\n`;
    case 'error': {
      const body = bounded(run.details?.error ?? run.message, MAX_BODY_CHARS);
      return `      <error${attributes({ message, type: 'error' })}>${escapeXmlText(body)}</error>\n`;
    }
    case 'unverified':
      return `      <skipped${attributes({ message: `unverified: ${message}` })}/>\n`;
    case 'skipped':
      return `      <skipped${attributes({ message })}/>\n`;
  }
}

/**
 * A case whose verdict a judge model gave (a test with `expected_answer`) says so in
 * properties, so CI dashboards never read it as a data-verified pass; a case answered by the
 * built-in mock or from a recording says so too, so it is never read as a live model's result.
 */
function runProperties(run: RunResult): string {
  const judge = run.details?.judge;
  const property = (name: string, value: string) =>
    `        <property${attributes({ name, value: bounded(value, MAX_MESSAGE_CHARS) })}/>\n`;
  let properties = '';
  if (run.details?.judged === true && judge) {
    properties +=
      property('judged', 'true') +
      property('judge_model', judge.model) +
      property('judge_verdict', judge.verdict ?? '');
  }
  if (run.details?.mock === true) properties += property('mock', 'true');
  if (run.details?.replayed === true) properties += property('replayed', 'true');
  return properties === '' ? '' : `      <properties>\n${properties}      </properties>\n`;
}

function testcase(run: RunResult, repeated: boolean): string {
  const status = statusOf(run);
  const name = repeated ? `${run.name} [attempt ${run.attempt}]` : run.name;
  const head = `    <testcase${attributes({
    name,
    classname: run.model,
    time: seconds(run.duration_ms),
    file: run.file ? `tests/${run.file}` : undefined,
  })}`;
  const properties = runProperties(run);
  const outcome = outcomeElement(run, status);
  const response = run.details?.response_text;
  const out = response
    ? `      <system-out>${escapeXmlText(bounded(response, MAX_SYSTEM_OUT_CHARS))}</system-out>\n`
    : '';
  if (properties === '' && outcome === '' && out === '') return `${head}/>\n`;
  return `${head}>\n${properties}${outcome}${out}    </testcase>\n`;
}

/**
 * The results as JUnit XML. failed → `<failure>` (message, then the diff), error → `<error>`,
 * unverified and skipped → `<skipped>` (CI must not count an unjudged run as passed); a run a
 * judge model graded has the property `judged`. With --repeat, each attempt is its own case
 * named "test [attempt k]".
 */
export function toJUnitXml(options: { file: ResultsFile; suiteName?: string }): string {
  const { file } = options;
  const suiteName = options.suiteName ?? 'nao test';
  const repeated = hasRepeats(file.results);
  let xml = '<?xml version="1.0" encoding="UTF-8"?>\n';
  xml += `<testsuites${attributes({ name: suiteName, ...countAttributes(file.results) })}>\n`;
  orderedModels(file.results, file.models ?? []).forEach((model, index) => {
    const runs = file.results.filter((run) => run.model === model);
    xml += `  <testsuite${attributes({
      name: model,
      id: index,
      ...countAttributes(runs),
      timestamp: junitTimestamp(file.timestamp),
    })}>\n`;
    for (const run of runs) xml += testcase(run, repeated);
    xml += '  </testsuite>\n';
  });
  xml += '</testsuites>\n';
  return xml;
}
