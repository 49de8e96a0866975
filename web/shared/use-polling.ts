import { useEffect } from 'preact/hooks';

/** How often a running job is asked how far it got. */
const POLL_MS = 400;

/**
 * While `id` is not null, calls `poll(id)` every `POLL_MS` and hands each answer to `onAnswer`,
 * until `id` changes or the component goes away; a failed call is simply tried again next time.
 */
export function usePolling<T>(options: {
  id: string | null;
  poll: (id: string) => Promise<T>;
  onAnswer: (answer: T) => void;
}): void {
  const { id } = options;
  useEffect(() => {
    if (id === null) return;
    let live = true;
    const timer = setInterval(() => {
      options.poll(id).then(
        (answer) => live && options.onAnswer(answer),
        () => undefined,
      );
    }, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
    // `options` is recreated on every render; `id` says when there is something else to follow.
  }, [id]);
}
