export { type AgentContext, createAgentContext } from './agent-context.js';
export type { Clarification } from './clarification.js';
export { checkQueryAccess } from './query-access.js';
export {
  type AgentModel,
  type AgentRunResult,
  type AgentStep,
  type AgentToolCall,
  runAgent,
} from './run-agent.js';
export { loadSyncedTables, type TableAccess, tableAccess } from './table-access.js';
export { createAgentTools } from './toolset.js';
