import type { Tool } from 'ai';
import type { NaoError } from '../errors/index.js';
import type { AgentContext } from './agent-context.js';
import { type CLARIFICATION_TOOL_NAME, createClarificationTool } from './clarification.js';
import { createExecuteSqlTool, type EXECUTE_SQL_TOOL_NAME } from './execute-sql.js';
import { createGrepTool, type GREP_TOOL_NAME } from './grep.js';
import { createListTool, type LIST_TOOL_NAME } from './list.js';
import type { QueryResults } from './query-results.js';
import { createReadTool, type READ_TOOL_NAME } from './read.js';
import { type AgentMode, CLARIFICATION_MODES } from './system-prompt.js';

export type AgentToolName =
  | typeof EXECUTE_SQL_TOOL_NAME
  | typeof LIST_TOOL_NAME
  | typeof READ_TOOL_NAME
  | typeof GREP_TOOL_NAME
  | typeof CLARIFICATION_TOOL_NAME;

interface ToolDependencies {
  context: AgentContext;
  queryResults: QueryResults;
  generateQueryId: () => string;
  onFatal: (error: NaoError) => void;
}

const EVERY_MODE: readonly AgentMode[] = ['chat', 'test', 'test-with-clarification'];

/**
 * Every tool, with the modes it is offered in. Test mode has no `clarification` at all
 * (not merely discouraged): a test run has nobody to answer it, unless the test allows it.
 */
const TOOLS: Record<
  AgentToolName,
  { modes: readonly AgentMode[]; create: (deps: ToolDependencies) => Tool }
> = {
  execute_sql: {
    modes: EVERY_MODE,
    create: (deps) =>
      createExecuteSqlTool({
        databases: deps.context.databases,
        unavailableDatabases: deps.context.unavailableDatabases,
        catalogs: deps.context.catalogs,
        access: deps.context.access,
        ...deps.context.limits,
        queryResults: deps.queryResults,
        generateQueryId: deps.generateQueryId,
        onFatal: deps.onFatal,
      }),
  },
  list: {
    modes: EVERY_MODE,
    create: (deps) =>
      createListTool({ projectDir: deps.context.projectDir, hidden: deps.context.hiddenContext }),
  },
  read: {
    modes: EVERY_MODE,
    create: (deps) =>
      createReadTool({ projectDir: deps.context.projectDir, hidden: deps.context.hiddenContext }),
  },
  grep: {
    modes: EVERY_MODE,
    create: (deps) =>
      createGrepTool({ projectDir: deps.context.projectDir, hidden: deps.context.hiddenContext }),
  },
  clarification: { modes: CLARIFICATION_MODES, create: () => createClarificationTool() },
};

/** The tools of one run in `mode`, bound to that run's query result store. */
export function createAgentTools(options: ToolDependencies & { mode: AgentMode }): Record<string, Tool> {
  const tools: Record<string, Tool> = {};
  for (const [name, entry] of Object.entries(TOOLS)) {
    if (entry.modes.includes(options.mode)) tools[name] = entry.create(options);
  }
  return tools;
}
