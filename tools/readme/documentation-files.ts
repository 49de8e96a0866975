/**
 * The project's documentation: README.md and every page of docs/. The generated tables and the
 * link check both walk this list, so a new page is covered by both as soon as it exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One documentation file: its path relative to the repository root, and its text. */
export interface DocumentationFile {
  readonly file: string;
  readonly text: string;
}

/** README.md, then docs/*.md in name order, read from `root`. */
export function readDocumentation(root: string): DocumentationFile[] {
  const pages = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages].map((file) => ({
    file,
    text: readFileSync(path.join(root, file), 'utf8'),
  }));
}
