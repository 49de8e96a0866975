/**
 * The import graph of a folder of the repository (src/, tools/…), read from the sources' own
 * import statements (type imports and `export … from` included) with TypeScript's
 * pre-processor: nothing is compiled or run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** An import of one file by another, as paths relative to the root. */
export interface ImportEdge {
  from: string;
  to: string;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every relative import between the production files under `folder` (tests left out). */
export function importEdges(options: { root: string; folder: string }): ImportEdge[] {
  const { root } = options;
  return sourceFiles(path.join(root, options.folder)).flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.filter((imported) => imported.fileName.startsWith('.'))
      .map((imported) => ({
        from: path.relative(root, file),
        to: path.relative(root, path.resolve(path.dirname(file), imported.fileName)).replace(/\.js$/, '.ts'),
      })),
  );
}

/**
 * The cycles of a directed graph: its strongly connected components of more than one node
 * (Tarjan), each sorted, for messages that name every member.
 */
export function cyclesOf(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)?.add(to);
    if (!next.has(to)) next.set(to, new Set());
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return cycles;
}
