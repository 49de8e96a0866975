import path from 'node:path';

/**
 * What `nao init` tells a newcomer to do next, as commands that work as printed on the fresh
 * project: no backend and no API key first (the built-in `mock:reference` runs the sample test
 * end to end), then a real model.
 */
export function nextSteps(options: { folder: string; cwd: string }): string {
  const relative = path.relative(options.cwd, options.folder);
  const cd = relative === '' ? [] : [`  cd ${relative.includes(' ') ? JSON.stringify(relative) : relative}`];
  return [
    `Project ready in ${options.folder}.`,
    '',
    'Next steps:',
    ...cd,
    '  nao test --local -m mock:reference   # no API key, no backend: the sample test end to end,',
    "                                       # answered with the test's own reference SQL (a mock, not a model)",
    '  # point nao_config.yaml at your warehouse, describe it in RULES.md, write tests in tests/',
    '  export OPENAI_API_KEY=sk-...',
    '  nao test --local -m openai:gpt-4.1   # a real model',
    '  nao test server                      # explore the results in the browser',
    '',
  ].join('\n');
}
