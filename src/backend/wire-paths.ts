import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Hides the server's own folders from what backend users read: errors written for the person
 * at the terminal name files by absolute path (`No test named x in /srv/shop/tests …`), which
 * tells every account where the project lives and whose home it is in. Paths inside the project
 * become relative to it, the home folder becomes `~`.
 */
export function createPathScrubber(folders: { projectDirs: readonly string[] }): (text: string) => string {
  const replacements: [string, string][] = [];
  for (const dir of new Set(folders.projectDirs.map((folder) => path.resolve(folder)))) {
    replacements.push([`${dir}${path.sep}`, ''], [dir, '.']);
  }
  const home = homedir();
  // The root or an empty home would turn every path into nonsense.
  if (home.length > 1) replacements.push([home, '~']);
  // Longest first: the project folder is usually inside the home folder.
  replacements.sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    let scrubbed = text;
    for (const [from, to] of replacements) scrubbed = scrubbed.replaceAll(from, to);
    return scrubbed;
  };
}
