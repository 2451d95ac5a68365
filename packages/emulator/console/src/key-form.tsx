import { useState } from 'preact/hooks';
import { keepKey, keyNeeded } from './api.js';

/** Asks for the emulator's key, once, when the emulator asks the page for one (opened from elsewhere). */
export function KeyForm() {
  const [key, setKey] = useState('');
  const need = keyNeeded.value;
  if (!need) return null;
  return (
    <section class="problem key-form" role="alert" aria-labelledby="key-title" data-testid="key-form">
      <h2 id="key-title">This console needs the emulator's API key</h2>
      <p>
        {need === 'refused' ? 'The emulator refused the key this tab was given. ' : ''}
        The page was opened from another machine (or through a container's port mapping), so the emulator asks
        for its key: the one it printed when it started, or the one given with <code>--api-key</code>. This
        tab keeps it until it is closed.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim() !== '') keepKey(key.trim());
        }}
      >
        <label>
          API key{' '}
          <input
            type="password"
            autocomplete="off"
            value={key}
            onInput={(event) => setKey(event.currentTarget.value)}
            data-testid="key-input"
          />
        </label>{' '}
        <button type="submit">Use this key</button>
      </form>
    </section>
  );
}
