/** The `nao test` command line of an app run: `nao test -s a,b -m openai:gpt-4.1`. */
export function equivalentCommand(options: {
  tests: readonly string[];
  models: readonly string[];
  local: boolean;
  /** Answered from tests/recordings/ (`--replay`, which implies `--local`). */
  replay?: boolean;
}): string {
  const quote = (value: string) =>
    /^[\w.:/,@+-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
  return [
    'nao test',
    ...(options.replay ? ['--replay'] : options.local ? ['--local'] : []),
    '-s',
    quote(options.tests.join(',')),
    ...options.models.flatMap((model) => ['-m', quote(model)]),
  ].join(' ');
}
