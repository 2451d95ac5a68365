import { homedir } from 'node:os';
import { join } from 'node:path';

/** The CLI's folder: DATAWORKZ_CONFIG_DIR, else the user's config directory (XDG on Unix, APPDATA on Windows). */
export function configDir(): string {
  const env = process.env;
  if (env.DATAWORKZ_CONFIG_DIR) return env.DATAWORKZ_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'dataworkz');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'dataworkz');
}
