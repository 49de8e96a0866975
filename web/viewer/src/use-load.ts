import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../../../src/errors/nao-error.js';

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'ready'; data: T }
  | { state: 'failed'; error: string };

/** Runs `load` whenever `key` changes; an answer for an older key is dropped. */
export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [loaded, setLoaded] = useState<{ key: string; value: Loaded<T> }>({
    key,
    value: { state: 'loading' },
  });
  useEffect(() => {
    let current = true;
    setLoaded({ key, value: { state: 'loading' } });
    load().then(
      (data) => current && setLoaded({ key, value: { state: 'ready', data } }),
      (error: unknown) => current && setLoaded({ key, value: { state: 'failed', error: messageOf(error) } }),
    );
    return () => {
      current = false;
    };
    // `load` is recreated on every render; `key` says when it means something else.
  }, [key]);
  return loaded.key === key ? loaded.value : { state: 'loading' };
}
