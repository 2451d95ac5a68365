/** What the lines name: where the emulator answers, the key it takes, and its console when it serves one. */
export interface ExportLinesSource {
  /** The address, `http://host:port`: `DATAWORKZ_BASE_URL`. */
  readonly url: string;
  /** The key it accepts: `DATAWORKZ_API_KEY`. */
  readonly apiKey: string;
  /** The web console's address, when it serves one. */
  readonly consoleUrl?: string | undefined;
  /** Recording: the deployment checks the credential, so its own key is used, not this one. */
  readonly mode?: 'emulating' | 'recording' | 'replaying' | undefined;
}

// Characters a POSIX shell takes as they are in a word; anything else is single-quoted.
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

function shellWord(value: string): string {
  return PLAIN.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The lines a running emulator prints, ready to paste into a shell: a comment saying where it listens,
 * `export DATAWORKZ_BASE_URL=…` and `export DATAWORKZ_API_KEY=…` (what the CLI and the SDK read), and
 * the console's address as a comment when it serves one. `dataworkz emulator` and `dataworkz-emulator`
 * both print them.
 */
export function exportLines(emulator: ExportLinesSource): string[] {
  return [
    `# Dataworkz emulator listening on ${emulator.url} (Ctrl-C stops it)`,
    `export DATAWORKZ_BASE_URL=${shellWord(emulator.url)}`,
    emulator.mode === 'recording'
      ? "# recording: requests go to the deployment, so set DATAWORKZ_API_KEY to the deployment's key"
      : `export DATAWORKZ_API_KEY=${shellWord(emulator.apiKey)}`,
    ...(emulator.consoleUrl ? [`# console: ${emulator.consoleUrl}`] : []),
  ];
}
