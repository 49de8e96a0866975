/**
 * The wire-protocol test server with the scripted analyst, in a worker thread: benchmarks
 * measure nao, and a real provider's work does not happen on nao's event loop either.
 * Importing this module on the main thread only exposes `startAnalystServerWorker`.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type ScriptedAnswer, scriptedAnalyst } from '../fake-analyst/index.js';
import { startTestLlmServer } from '../llm-test-server/index.js';

export interface AnalystServerWorker {
  url: string;
  /** Stops the server and the worker; resolves with the number of model calls it answered. */
  close(): Promise<number>;
}

export async function startAnalystServerWorker(
  answers: Record<string, ScriptedAnswer>,
): Promise<AnalystServerWorker> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { answers } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (message: { url: string }) => resolve(message.url));
    worker.once('error', reject);
  });
  return {
    url,
    async close() {
      const calls = new Promise<number>((resolve) =>
        worker.once('message', (message: { calls: number }) => resolve(message.calls)),
      );
      worker.postMessage('close');
      const count = await calls;
      await worker.terminate();
      return count;
    },
  };
}

if (!isMainThread && parentPort !== null && workerData?.answers !== undefined) {
  const port = parentPort;
  const server = await startTestLlmServer({ script: scriptedAnalyst({ answers: workerData.answers }) });
  port.postMessage({ url: server.url });
  port.on('message', async () => {
    const calls = server.requests.length;
    await server.close();
    port.postMessage({ calls });
  });
}
