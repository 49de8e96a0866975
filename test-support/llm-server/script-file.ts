import type { Script, ScriptRequest, Turn } from './types.js';

/**
 * A script as JSON, for the CLI: either a list of turns answered in arrival order, or
 * routes that give each conversation its own turns, so concurrent runs of different tests
 * get their own answers:
 *
 * ```json
 * { "routes": [ { "match": "total revenue", "turns": [ {...}, {...} ] } ], "fallback": [ ... ] }
 * ```
 *
 * A request takes the first route whose `match` occurs in one of its user messages; each
 * route (and the fallback) hands out its turns in order, then repeats its last turn when
 * `repeatLast` is true.
 */
export interface ScriptFile {
  routes?: { match: string; turns: Turn[]; repeatLast?: boolean }[];
  fallback?: Turn[];
}

export class ScriptFileError extends Error {}

function checkTurns(value: unknown, where: string): Turn[] {
  if (!Array.isArray(value)) throw new ScriptFileError(`${where} must be a list of turns`);
  value.forEach((turn, index) => {
    if (typeof turn !== 'object' || turn === null || Array.isArray(turn)) {
      throw new ScriptFileError(`${where}[${index}] must be an object (a turn)`);
    }
  });
  return value as Turn[];
}

/** Turns parsed JSON into a script; throws `ScriptFileError` naming the bad field. */
export function scriptFromJson(value: unknown): Script {
  if (Array.isArray(value)) return checkTurns(value, 'the script');
  if (typeof value !== 'object' || value === null) {
    throw new ScriptFileError('the script must be a list of turns or an object with `routes`');
  }
  const file = value as ScriptFile;
  const routes = (file.routes ?? []).map((route, index) => {
    if (typeof route?.match !== 'string' || route.match === '') {
      throw new ScriptFileError(`routes[${index}].match must be a non-empty string`);
    }
    return {
      match: route.match,
      turns: checkTurns(route.turns, `routes[${index}].turns`),
      repeatLast: route.repeatLast === true,
      next: 0,
    };
  });
  const fallback = {
    match: '',
    turns: file.fallback === undefined ? [] : checkTurns(file.fallback, 'fallback'),
    repeatLast: false,
    next: 0,
  };
  return (request: ScriptRequest): Turn => {
    const userText = request.messages
      .filter((message) => message.role === 'user')
      .map((message) => message.content);
    const route = routes.find((candidate) => userText.some((text) => text.includes(candidate.match)));
    const source = route ?? fallback;
    const turn = source.turns[source.next] ?? (source.repeatLast ? source.turns.at(-1) : undefined);
    if (turn === undefined) {
      throw new Error(
        route === undefined
          ? `no route matches the user messages and the fallback has ${fallback.turns.length} turn(s), all used`
          : `route ${JSON.stringify(route.match)} has no turn left (it has ${route.turns.length})`,
      );
    }
    source.next++;
    return turn;
  };
}
