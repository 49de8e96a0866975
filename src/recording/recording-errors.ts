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

/** Replay met a model call that was never recorded: no file, or fewer steps than the run makes. */
export class MissingRecordingError extends NaoError {
  readonly test: string;
  readonly model: string;
  readonly attempt: number;
  readonly step: number;
  readonly file: string;

  constructor(options: ReplayPoint & { recordedSteps: number | null }) {
    const found =
      options.recordedSteps === null
        ? `${options.file} does not exist`
        : `${options.file} holds ${options.recordedSteps} model call(s)${options.recordedSteps === 0 ? ' (the recorded run failed before its first answer)' : ''}`;
    super({
      code: 'RECORDING_MISSING',
      message: `No recording of step ${options.step} for ${runLabel(options)}: ${found}. Re-record with \`nao test --record\`.`,
    });
    this.test = options.test;
    this.model = options.model;
    this.attempt = options.attempt;
    this.step = options.step;
    this.file = options.file;
  }
}

/** Replay met a model call whose input differs from the recorded one at the same step. */
export class StaleRecordingError extends NaoError {
  readonly test: string;
  readonly model: string;
  readonly attempt: number;
  readonly step: number;
  readonly file: string;
  /** What differs, in a few words each. */
  readonly changes: string[];

  constructor(options: ReplayPoint & { changes: string[] }) {
    const changes = options.changes.length === 0 ? ['the request differs'] : options.changes;
    super({
      code: 'RECORDING_STALE',
      message:
        `The recording of ${runLabel(options)} is stale at step ${options.step}: ${changes.join('; ')}. ` +
        `Re-record with \`nao test --record\` (${options.file}).`,
    });
    this.test = options.test;
    this.model = options.model;
    this.attempt = options.attempt;
    this.step = options.step;
    this.file = options.file;
    this.changes = changes;
  }
}
