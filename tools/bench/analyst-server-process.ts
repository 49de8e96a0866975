/**
 * The wire-protocol test server with the scripted analyst, in a child process: benchmarks
 * measure nao, and a real provider's work and memory are not in nao's process either (the
 * peak RSS of a benchmark is nao's alone). Importing this module only exposes
 * `startAnalystServerProcess`; run as a script, it is the server.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestLlmServer } from '../../test-support/llm-server/index.js';
import { type ScriptedAnswer, scriptedAnalyst } from '../../test-support/llm-server/scripted-analyst.js';

export interface AnalystServerProcess {
  url: string;
  /** Stops the server and its process; resolves with the model calls it answered and the CPU it used. */
  close(): Promise<{ calls: number; cpuMs: number }>;
}

type FromServer = { type: 'listening'; url: string } | { type: 'closed'; calls: number; cpuMs: number };
type ToServer = { type: 'start'; answers: Record<string, ScriptedAnswer> } | { type: 'close' };

const SCRIPT = fileURLToPath(import.meta.url);

export async function startAnalystServerProcess(
  answers: Record<string, ScriptedAnswer>,
): Promise<AnalystServerProcess> {
  const child = fork(SCRIPT, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () =>
    new Promise<FromServer>((resolve, reject) => {
      child.once('message', (message: FromServer) => resolve(message));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the analyst server process exited with code ${code}`)));
    });
  const listening = next();
  child.send({ type: 'start', answers } satisfies ToServer);
  const started = await listening;
  if (started.type !== 'listening') throw new Error('the analyst server process did not start');
  return {
    url: started.url,
    async close() {
      const closed = next();
      child.send({ type: 'close' } satisfies ToServer);
      const message = await closed;
      child.disconnect();
      if (message.type !== 'closed') throw new Error('the analyst server process did not close');
      return { calls: message.calls, cpuMs: message.cpuMs };
    },
  };
}

if (process.argv[1] === SCRIPT && process.send !== undefined) {
  const send = (message: FromServer) => process.send?.(message);
  process.on('message', async (message: ToServer) => {
    if (message.type === 'start') {
      const server = await startTestLlmServer({ script: scriptedAnalyst({ answers: message.answers }) });
      process.on('message', async (next: ToServer) => {
        if (next.type !== 'close') return;
        const calls = server.requests.length;
        await server.close();
        const cpu = process.cpuUsage();
        send({ type: 'closed', calls, cpuMs: (cpu.user + cpu.system) / 1000 });
      });
      send({ type: 'listening', url: server.url });
    }
  });
}
