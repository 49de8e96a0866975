import { readdirSync, readFileSync } from 'node:fs';

/**
 * Samples the resident memory of a process and all its descendants (Linux /proc), for tests
 * that bound what nao and its child processes may use together. `peakBytes` is the largest sum
 * seen at one sample; `onSample` may stop a runaway before it takes the machine with it.
 */
export function watchProcessTree(options: {
  pid: number;
  intervalMs?: number;
  onSample?: (totalBytes: number) => void;
}): { peakBytes(): number; stop(): void } {
  let peak = 0;
  const sample = () => {
    const total = treeOf(options.pid).reduce((sum, pid) => sum + residentBytes(pid), 0);
    peak = Math.max(peak, total);
    options.onSample?.(total);
  };
  sample();
  const timer = setInterval(sample, options.intervalMs ?? 50);
  return {
    peakBytes: () => peak,
    stop: () => clearInterval(timer),
  };
}

function treeOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

function parentOf(pid: number): number | undefined {
  try {
    // The command name may hold spaces and parentheses: the fields after its last ')' do not.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // ended meanwhile
  }
}

function residentBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}
