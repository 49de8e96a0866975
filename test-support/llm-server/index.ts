export { type ScriptFile, ScriptFileError, scriptFromJson } from './script-file.js';
export { type StartTestLlmServerOptions, startTestLlmServer, type TestLlmServer } from './server.js';
export type {
  MessageRole,
  NormalizedMessage,
  NormalizedTool,
  Protocol,
  RecordedRequest,
  Script,
  ScriptFunction,
  ScriptRequest,
  Turn,
  TurnToolCall,
  TurnUsage,
} from './types.js';
