import { useState } from 'preact/hooks';
import { consoleApi, messageOf } from './api.js';
import { liveState, type ModeStatus } from './live.js';

/** A size in bytes as people read it. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The mode in a few words, for the status line of every view. */
export function modeText(mode: ModeStatus): string {
  if (mode.recording) {
    const { target, entries, bytes } = mode.recording;
    const findings = mode.drift?.findings.length ?? 0;
    return `recording ${target}: ${entries} ${entries === 1 ? 'exchange' : 'exchanges'}, ${sizeText(bytes)}, ${findings} drift ${findings === 1 ? 'finding' : 'findings'}`;
  }
  if (mode.replaying) return `replaying ${mode.replaying.entries} recorded exchanges`;
  return 'emulating';
}

/** The mode, the cassette, the live drift and the state export, on the overview. */
export function ModePanel() {
  const state = liveState.value;
  const [exported, setExported] = useState<string | undefined>(undefined);
  const mode = state?.mode;
  if (!mode) return null;
  const exportNow = () => {
    setExported('Exporting…');
    consoleApi<{ files: string[] }>('state/export', 'POST').then(
      ({ files }) => setExported(`Wrote ${files.length} files to ${mode.exportFolder ?? ''}`),
      (error: unknown) => setExported(messageOf(error)),
    );
  };
  return (
    <section class="panel" aria-labelledby="mode-title" data-testid="mode-panel">
      <h2 id="mode-title">Mode: {mode.mode}</h2>
      {mode.recording ? (
        <p>
          API requests go to <code>{mode.recording.target}</code> with the caller's credential; each exchange
          is appended to <code>{mode.recording.cassette}</code> ({mode.recording.entries} so far,{' '}
          {sizeText(mode.recording.bytes)}), credentials redacted.
        </p>
      ) : mode.replaying ? (
        <p>
          API requests are answered from <code>{mode.replaying.cassette}</code> ({mode.replaying.entries}{' '}
          recorded exchanges), with nothing behind it.
        </p>
      ) : (
        <p>API requests are answered by the emulator.</p>
      )}
      {mode.drift ? <Drift drift={mode.drift} /> : null}
      <p>
        {mode.exportFolder ? (
          <>
            <button type="button" class="secondary" onClick={exportNow}>
              Export state now
            </button>{' '}
            to <code>{mode.exportFolder}</code> {exported ? <span role="status">{exported}</span> : null}
          </>
        ) : (
          <span class="muted">Start with --export-on-exit DIR to export the state from here.</span>
        )}
      </p>
    </section>
  );
}

function Drift(props: { drift: NonNullable<ModeStatus['drift']> }) {
  const { responses, findings } = props.drift;
  if (findings.length === 0) {
    return (
      <p data-testid="drift">
        Drift: {responses} {responses === 1 ? 'response' : 'responses'} checked against the spec, none
        differs.
      </p>
    );
  }
  return (
    <>
      <h3>
        Drift from the spec ({responses} {responses === 1 ? 'response' : 'responses'} checked)
      </h3>
      <table data-testid="drift">
        <thead>
          <tr>
            <th>Operation</th>
            <th>Status</th>
            <th>What differs</th>
            <th>Where</th>
            <th>Spec</th>
            <th>Seen</th>
            <th>Example</th>
          </tr>
        </thead>
        <tbody>
          {findings.map((f) => (
            <tr key={`${f.operationId} ${f.kind} ${f.response} ${f.at}`}>
              <td>{f.operationId}</td>
              <td>{f.response}</td>
              <td>{f.kind}</td>
              <td>
                <code>{f.at}</code>
              </td>
              <td>{f.expected ?? ''}</td>
              <td>{f.count}</td>
              <td>
                <code>{JSON.stringify(f.example)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
