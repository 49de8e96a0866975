/**
 * `npm run bench [name…]`: runs every benchmark in this folder (or the named ones) one after
 * the other and prints their numbers. A benchmark is a sibling module exporting
 * `benchmark: { name, description, run(): Promise<void> }`; adding one needs no registration.
 * When several run, each runs in a fresh process.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<void>;
}

async function main(): Promise<void> {
  const folder = path.dirname(fileURLToPath(import.meta.url));
  const wanted = process.argv.slice(2);
  const files = (await readdir(folder)).filter((file) => file.endsWith('.ts') && file !== 'main.ts').sort();
  const benchmarks: Benchmark[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(folder, file)).href)) as { benchmark?: Benchmark };
    if (module.benchmark) benchmarks.push(module.benchmark);
  }
  const selected = wanted.length === 0 ? benchmarks : benchmarks.filter((b) => wanted.includes(b.name));
  if (selected.length === 0) {
    process.stderr.write(
      `No benchmark named ${wanted.join(', ')}. Available: ${benchmarks.map((b) => b.name).join(', ')}\n`,
    );
    process.exitCode = 2;
    return;
  }
  if (selected.length === 1) {
    const [benchmark] = selected as [Benchmark];
    process.stdout.write(`\n== ${benchmark.name}: ${benchmark.description}\n`);
    await benchmark.run();
    return;
  }
  // Several: each in a process of its own, so that its peak memory and its warm-up are its
  // own and not what the benchmarks before it left behind.
  for (const benchmark of selected) {
    const code = await runAlone(benchmark.name);
    if (code !== 0) process.exitCode = code;
  }
}

function runAlone(name: string): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], {
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

await main();
