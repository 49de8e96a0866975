export {
  type AgentContext,
  type AgentContextOptions,
  type AgentLimits,
  createAgentContext,
  DEFAULT_PREVIEW_ROWS,
} from './agent-context.js';
export { CLARIFICATION_TOOL_NAME, type Clarification } from './clarification.js';
export { deniedReason } from './context-paths.js';
export { EXECUTE_SQL_TOOL_NAME, type ExecuteSqlOutput } from './execute-sql.js';
export { GREP_TOOL_NAME } from './grep.js';
export { LIST_TOOL_NAME } from './list.js';
export {
  QUERY_ID_PATTERN,
  type QueryResults,
  randomQueryId,
  type StoredQueryResult,
} from './query-results.js';
export { READ_TOOL_NAME } from './read.js';
export {
  type AgentFinishReason,
  type AgentModel,
  type AgentRunResult,
  type AgentStep,
  type AgentToolCall,
  type ResponseMessage,
  type RunAgentOptions,
  runAgent,
} from './run-agent.js';
export { DEFAULT_SCHEMA_LIMITS, type SchemaSummaryLimits } from './schema-summary.js';
export { type AgentMode, buildSystemPrompt, type DatabaseSchema } from './system-prompt.js';
export { loadSyncedTables, type TableAccess, tableAccess } from './table-access.js';
export { isToolError, type ToolError } from './tool-error.js';
export { type AgentToolName, createAgentTools } from './toolset.js';
