import { join } from 'node:path';
import { UsageError } from '../exit-codes.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { configDir } from './paths.js';

/** Where a profile points, and with which credential. */
export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  token?: string;
}

export interface ConfigFile {
  /** The profile used when none is named. */
  current?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';

/** The settings `config set/get` know, by the name a person types. */
const settings = {
  'base-url': 'baseUrl',
  'api-key': 'apiKey',
  token: 'token',
} as const satisfies Record<string, keyof Profile>;

export function settingOf(name: string): keyof Profile {
  const key = (settings as Record<string, keyof Profile>)[name];
  if (!key)
    throw new UsageError(`Unknown setting "${name}"; use one of: ${Object.keys(settings).join(', ')}.`);
  return key;
}

const configPath = (): string => join(configDir(), 'config.json');

export function readConfig(): Promise<ConfigFile> {
  return readJsonFile<ConfigFile>(configPath(), { profiles: {} });
}

export function writeConfig(config: ConfigFile): Promise<void> {
  return writeJsonFile(configPath(), config);
}

/** The profile in force: named by `--profile`, else DATAWORKZ_PROFILE, else the config's current one. */
export function profileName(config: ConfigFile, flag: string | undefined): string {
  return flag ?? process.env.DATAWORKZ_PROFILE ?? config.current ?? DEFAULT_PROFILE;
}

/** A secret as `config get` shows it: its length and last four characters at most. */
export function masked(secret: string): string {
  return secret.length <= 8 ? '****' : `****${secret.slice(-4)}`;
}
