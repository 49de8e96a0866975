import path from 'node:path';
import { type InferSchema, type Tool, tool, zodSchema } from 'ai';
import { z } from 'zod';
import { type ContextListing, walkContextFiles } from './context-files.js';
import { resolveContextPath } from './context-paths.js';
import { readContextText } from './context-text.js';
import { type LineMatch, type SearchFile, searchLines } from './regex-search.js';
import type { HiddenContext } from './row-security-files.js';
import { type ToolError, toModelOutput, toolError } from './tool-error.js';

export const GREP_TOOL_NAME = 'grep';

export const GREP_LIMITS = {
  maxMatches: 100,
  maxLineChars: 300,
  /** Larger files are skipped (and counted); read them by line range instead. */
  maxFileBytes: 2 * 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
  maxFiles: 5000,
  timeoutMs: 5000,
} as const;

/** Files read at once; enough to hide disk latency without exhausting file descriptors. */
const READ_CONCURRENCY = 32;

export interface GrepOutput {
  matches: LineMatch[];
  /** Matching lines in all searched files, including those not returned. */
  total_matches: number;
  files_searched: number;
  truncated?: true;
  note?: string;
}

// Converted to JSON Schema once, not by the SDK on every model call.
const inputSchema = zodSchema(
  z.object({
    pattern: z
      .string()
      .describe('Regular expression (RE2 syntax), matched case-insensitively against each line.'),
    path: z
      .string()
      .optional()
      .describe('Folder or file to search, relative to the project folder; default: all.'),
  }),
);
type GrepInput = InferSchema<typeof inputSchema>;

/** The `grep` tool: lines of the project's context files matching a regular expression. */
export function createGrepTool(options: {
  projectDir: string;
  hidden?: HiddenContext | undefined;
}): Tool<GrepInput, GrepOutput | ToolError> {
  return tool({
    description:
      'Search the text files of the project for lines matching a regular expression ' +
      '(RE2 syntax: no backreferences or lookaround; case-insensitive), e.g. "revenue|net_sales". Returns file, line number and ' +
      `line, at most ${GREP_LIMITS.maxMatches} lines. Secrets, nao_config.yaml and the tests/ folder are not searched.`,
    inputSchema,
    toModelOutput,
    async execute(input, { abortSignal }): Promise<GrepOutput | ToolError> {
      if (input.pattern === '')
        return toolError('pattern is empty; give the text or regular expression to find.');
      const resolved = await resolveContextPath({
        projectDir: options.projectDir,
        requested: input.path,
        hidden: options.hidden,
      });
      if (!resolved.success) return toolError(resolved.error);

      const listing: ContextListing =
        resolved.kind === 'file'
          ? { entries: [{ path: resolved.relative, kind: 'file', size: resolved.size }], truncated: false }
          : await walkContextFiles({
              projectDir: options.projectDir,
              startDir: resolved.absolute,
              maxEntries: GREP_LIMITS.maxFiles,
              hidden: options.hidden,
            });
      const chosen: { path: string; size: number }[] = [];
      let skippedLarge = 0;
      let totalBytes = 0;
      for (const entry of listing.entries) {
        if (entry.kind !== 'file') continue;
        const size = entry.size ?? 0;
        if (size > GREP_LIMITS.maxFileBytes || totalBytes + size > GREP_LIMITS.maxTotalBytes) {
          skippedLarge += 1;
          continue;
        }
        totalBytes += size;
        chosen.push({ path: entry.path, size });
      }
      const files: SearchFile[] = [];
      let skippedBinary = 0;
      for (let start = 0; start < chosen.length; start += READ_CONCURRENCY) {
        const batch = chosen.slice(start, start + READ_CONCURRENCY);
        const texts = await Promise.all(
          batch.map((candidate) =>
            readContextText({
              absolute: path.join(options.projectDir, candidate.path),
              displayPath: candidate.path,
              size: candidate.size,
              maxBytes: GREP_LIMITS.maxFileBytes,
            }),
          ),
        );
        texts.forEach((text, index) => {
          if (text.success) files.push({ path: batch[index]!.path, text: text.text });
          else skippedBinary += 1;
        });
      }

      const outcome = await searchLines({
        pattern: input.pattern,
        flags: 'i',
        files,
        maxMatches: GREP_LIMITS.maxMatches,
        maxLineChars: GREP_LIMITS.maxLineChars,
        timeoutMs: GREP_LIMITS.timeoutMs,
        signal: abortSignal,
      });
      if (!outcome.success) return toolError(outcome.error);

      const output: GrepOutput = {
        matches: outcome.matches,
        total_matches: outcome.totalMatches,
        files_searched: files.length,
      };
      const notes: string[] = [];
      if (outcome.totalMatches > outcome.matches.length) {
        output.truncated = true;
        notes.push(
          `Showing ${outcome.matches.length} of ${outcome.totalMatches} matching lines; use a more specific pattern or path.`,
        );
      }
      if (listing.truncated) {
        notes.push(
          `Only the first ${GREP_LIMITS.maxFiles} files were searched; search a sub-folder for the rest.`,
        );
      }
      if (skippedLarge > 0) {
        notes.push(`${skippedLarge} file(s) were skipped for their size; read them by line range instead.`);
      }
      if (skippedBinary > 0) notes.push(`${skippedBinary} binary or unreadable file(s) were skipped.`);
      if (notes.length > 0) output.note = notes.join(' ');
      return output;
    },
  });
}
