import {
  DEFAULT_PROFILE,
  masked,
  type Profile,
  profileName,
  readConfig,
  settingOf,
  writeConfig,
} from '../config/profiles.js';
import { readSecret } from '../config/read-secret.js';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';

const secrets = new Set<keyof Profile>(['apiKey', 'token']);

export async function set(ctx: Context, name: string, value: string | undefined): Promise<void> {
  const key = settingOf(name);
  if (secrets.has(key) && value !== undefined) {
    throw new UsageError(
      `A ${name} is never taken as an argument (it would stay in the shell history). Pipe it in, e.g. printf %s "$KEY" | dataworkz config set ${name}, or type it at the prompt.`,
    );
  }
  if (!secrets.has(key) && value === undefined) throw new UsageError(`config set ${name} needs a value.`);
  const given = value ?? (await readSecret(name));
  if (key === 'baseUrl' && !/^https?:\/\//.test(given))
    throw new UsageError(`base-url must start with http:// or https://.`);
  const config = await readConfig();
  const profile = profileName(config, ctx.options.profile);
  const settings = { ...config.profiles[profile], [key]: given };
  // A profile holds one credential: a new key replaces a token and the other way round.
  if (key === 'apiKey') delete settings.token;
  if (key === 'token') delete settings.apiKey;
  config.profiles[profile] = settings;
  config.current ??= profile;
  await writeConfig(config);
  ctx.out.error(`Set ${name} of profile ${profile}.`);
}

export async function get(ctx: Context, name: string): Promise<void> {
  const key = settingOf(name);
  const config = await readConfig();
  const value = config.profiles[profileName(config, ctx.options.profile)]?.[key];
  if (value === undefined) throw new UsageError(`${name} is not set in this profile.`);
  ctx.out.line(secrets.has(key) ? masked(value) : value);
}

export async function list(ctx: Context): Promise<void> {
  const config = await readConfig();
  const current = profileName(config, undefined);
  const rows = Object.entries(config.profiles).map(([name, settings]) => [
    name === current ? `* ${name}` : `  ${name}`,
    settings.baseUrl ?? '',
    settings.apiKey
      ? `api key ${masked(settings.apiKey)}`
      : settings.token
        ? `token ${masked(settings.token)}`
        : 'none',
  ]);
  if (ctx.out.json) {
    return ctx.out.printJson({
      current,
      profiles: Object.keys(config.profiles),
    });
  }
  if (rows.length === 0)
    return ctx.out.error('No profiles yet: `dataworkz config set base-url <url>` creates one.');
  ctx.out.table(['PROFILE', 'BASE URL', 'CREDENTIAL'], rows);
}

export async function use(ctx: Context, profile: string): Promise<void> {
  const config = await readConfig();
  if (!config.profiles[profile] && profile !== DEFAULT_PROFILE) {
    throw new UsageError(
      `No profile "${profile}"; create it with \`dataworkz config set base-url <url> --profile ${profile}\`.`,
    );
  }
  config.current = profile;
  await writeConfig(config);
  ctx.out.error(`Using profile ${profile}.`);
}
