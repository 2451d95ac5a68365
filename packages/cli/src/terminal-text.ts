import stripAnsi from 'strip-ansi';

// C0 controls but tab and line feed, DEL, and the C1 controls (U+009B alone starts a sequence on some
// terminals); and the bidirectional overrides, which make a terminal show text in another order.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is its job.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from the service or from a user's file, made inert for a terminal: escape sequences (colours,
 * cursor moves, `ESC ] 0 ; … BEL` that sets the window's title, OSC 52 that writes the clipboard) and
 * control characters removed; line feeds and tabs kept. Every command prints such text through this.
 */
export function terminalText(text: string | undefined): string {
  return text === undefined ? '' : stripAnsi(text).replace(CONTROLS, '');
}
