import { NaoError } from '../errors/index.js';

/** Which run a replayed model call belonged to, for messages. */
export interface ReplayPoint {
  test: string;
  model: string;
  attempt: number;
  /** 1-based model call of the run. */
  step: number;
  /** The recording file, as shown to the user. */
  file: string;
}

function runLabel(point: ReplayPoint): string {
  return `test "${point.test}" on ${point.model}, attempt ${point.attempt}`;
}

/** A replay failure at one model call of a run, with that call's run, step and recording file. */
abstract class ReplayPointError extends NaoError {
  readonly test: string;
  readonly model: string;
  readonly attempt: number;
  readonly step: number;
  readonly file: string;

  constructor(point: ReplayPoint, error: { code: string; message: string }) {
    super(error);
    this.test = point.test;
    this.model = point.model;
    this.attempt = point.attempt;
    this.step = point.step;
    this.file = point.file;
  }
}

/** Replay met a model call that was never recorded: no file, or fewer steps than the run makes. */
export class MissingRecordingError extends ReplayPointError {
  constructor(options: ReplayPoint & { recordedSteps: number | null }) {
    const found =
      options.recordedSteps === null
        ? `${options.file} does not exist`
        : `${options.file} holds ${options.recordedSteps} model call(s)${options.recordedSteps === 0 ? ' (the recorded run failed before its first answer)' : ''}`;
    super(options, {
      code: 'RECORDING_MISSING',
      message: `No recording of step ${options.step} for ${runLabel(options)}: ${found}. Re-record with \`nao test --record\`.`,
    });
  }
}

/** Replay met a model call whose input differs from the recorded one at the same step. */
export class StaleRecordingError extends ReplayPointError {
  /** What differs, in a few words each. */
  readonly changes: string[];

  constructor(options: ReplayPoint & { changes: string[] }) {
    const changes = options.changes.length === 0 ? ['the request differs'] : options.changes;
    super(options, {
      code: 'RECORDING_STALE',
      message:
        `The recording of ${runLabel(options)} is stale at step ${options.step}: ${changes.join('; ')}. ` +
        `Re-record with \`nao test --record\` (${options.file}).`,
    });
    this.changes = changes;
  }
}
