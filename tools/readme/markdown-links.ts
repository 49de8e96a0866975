/**
 * The relative links of README.md and docs/ and the anchors they point at, so a moved section or
 * a renamed heading is caught by a test instead of by a reader. Anchors are made the way GitHub
 * makes them from a heading, since that is where the pages are read.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DocumentationFile } from './documentation-files.js';

/** Fenced code blocks hold `# comments` and `[x](y)` that are neither headings nor links. */
const withoutCodeBlocks = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces made hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replaceAll(' ', '-');
}

/** Every anchor a page has; a repeated heading gets `-1`, `-2`… as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of withoutCodeBlocks(markdown).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of the page's links that stay inside the repository (no scheme such as https:). */
export function relativeLinks(markdown: string): string[] {
  const prose = withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map(([, target = '']) => target)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** A link whose file or anchor does not exist. */
export interface BrokenLink {
  readonly file: string;
  readonly target: string;
  readonly reason: string;
}

/** Every relative link of `files` checked against the tree under `root` and the pages' headings. */
export function brokenLinks(options: { root: string; files: readonly DocumentationFile[] }): BrokenLink[] {
  const pages = new Map(options.files.map((page) => [page.file, page.text]));
  return options.files.flatMap(({ file, text }) =>
    relativeLinks(text).flatMap((target): BrokenLink[] => {
      const [linkPath = '', anchor] = target.split('#', 2);
      const resolved =
        linkPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), linkPath));
      if (!existsSync(path.join(options.root, resolved)))
        return [{ file, target, reason: `${resolved} does not exist` }];
      if (anchor === undefined || anchor === '') return [];
      const page = pages.get(resolved);
      if (page === undefined)
        return [
          { file, target, reason: `${resolved} is not a documentation page, so its anchors are unknown` },
        ];
      if (!headingAnchors(page).has(anchor))
        return [{ file, target, reason: `${resolved} has no heading with the anchor #${anchor}` }];
      return [];
    }),
  );
}
