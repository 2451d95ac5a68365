import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messageOf } from './api.js';

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; value: T };

/** Runs `load` whenever `deps` change; an answer to earlier deps is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    load().then(
      (value) => current && setLoaded({ state: 'ready', value }),
      (error: unknown) => current && setLoaded({ state: 'failed', message: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return [loaded, () => setRound((r) => r + 1)];
}

/** What a load shows while it runs or once it failed; its children once it is ready. */
export function Show<T>(props: {
  loaded: Loaded<T>;
  what: string;
  retry?: () => void;
  children: (value: T) => ComponentChildren;
}) {
  const { loaded } = props;
  if (loaded.state === 'loading')
    return (
      <p class="muted" aria-live="polite">
        Loading {props.what}…
      </p>
    );
  if (loaded.state === 'failed') {
    return (
      <div class="problem" role="alert">
        <p>
          Could not load {props.what}: {loaded.message}
        </p>
        <p>
          If a fault is switched on, clear it under <a href="/console/faults">Faults and limits</a>, then{' '}
          {props.retry ? (
            <button type="button" class="link" onClick={props.retry}>
              try again
            </button>
          ) : (
            'reload the page'
          )}
          .
        </p>
      </div>
    );
  }
  return <>{props.children(loaded.value)}</>;
}

/** A value as indented JSON. */
export function Json(props: { value: unknown; label?: string }) {
  return (
    <figure aria-label={props.label}>
      <pre class="json">{JSON.stringify(props.value, null, 2)}</pre>
    </figure>
  );
}
