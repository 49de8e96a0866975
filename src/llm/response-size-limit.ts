import { ProviderError } from './provider-error.js';

/**
 * The most of one model answer nao reads: 32 MiB. A real answer is far smaller (128k output
 * tokens are about half a megabyte), and the AI SDK would otherwise read up to 2 GiB per call,
 * one per thread, from a proxy or stand-in that sends without end.
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * `response` with a body that fails, once more than `MAX_RESPONSE_BYTES` arrived, with a
 * ProviderError naming the model: the SDK reports that error (it keeps it as the cause of its
 * own), and stops reading.
 */
export function limitResponseSize(
  response: Response,
  options: { provider: string; modelId: string },
): Response {
  const { body } = response;
  if (body === null) return response;
  let received = 0;
  const limited = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received <= MAX_RESPONSE_BYTES) {
          controller.enqueue(chunk);
          return;
        }
        const label = `${options.provider}:${options.modelId}`;
        const size = `${MAX_RESPONSE_BYTES / (1024 * 1024)} MiB`;
        controller.error(
          new ProviderError({
            provider: options.provider,
            modelId: options.modelId,
            status: response.status,
            providerMessage: `answer over ${size}`,
            failure: 'http',
            attempts: 1,
            message: `${label} sent an answer of more than ${size}; nao stops reading there. A model's answer is far smaller: check base_url and the proxy behind it.`,
          }),
        );
      },
    }),
  );
  return new Response(limited, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
