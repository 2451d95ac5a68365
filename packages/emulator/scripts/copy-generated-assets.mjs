// Copies the binary tables and their licence from src/generated to dist/generated, where the built
// modules read them (`new URL('../generated/…', import.meta.url)`); tsc copies only TypeScript's output.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const from = join(import.meta.dirname, '..', 'src', 'generated');
const to = join(import.meta.dirname, '..', 'dist', 'generated');
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from)) {
  if (name.endsWith('.bin') || name.endsWith('.txt')) copyFileSync(join(from, name), join(to, name));
}
