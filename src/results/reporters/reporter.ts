import type { StopReason } from '../../scheduler/index.js';
import type { ResultsFile, RunResult } from '../index.js';

/**
 * What `nao test` tells each of its outputs as a suite runs: the console, the results JSON
 * and JUnit are reporters, and a new output is one more implementation of this.
 */
export interface Reporter {
  /** The first runs are starting. */
  onSuiteStart?(): void;
  /** A run finished (runs finish in any order). */
  onRunFinished?(result: RunResult): void;
  /** The suite stopped starting runs: the budget, fail-fast or Ctrl-C. */
  onSuiteStopped?(reason: StopReason): void;
  /**
   * The suite is over, with every result in the file. Writers write here; the line they
   * resolve with ("Results saved to …") is printed after every reporter's end.
   */
  onSuiteEnd?(file: ResultsFile): Promise<string | undefined> | string | undefined;
}

/**
 * Ends the suite for every reporter in order (files first, so nothing is lost if printing
 * fails) and returns their notices in the same order.
 */
export async function endSuite(reporters: readonly Reporter[], file: ResultsFile): Promise<string[]> {
  const notices: string[] = [];
  for (const reporter of reporters) {
    const notice = await reporter.onSuiteEnd?.(file);
    if (notice !== undefined) notices.push(notice);
  }
  return notices;
}
