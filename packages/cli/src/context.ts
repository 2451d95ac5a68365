import type { Dataworkz, Logger } from '@dataworkz/client';
import { DEFAULT_PROFILE, type Profile, profileName, readConfig } from './config/profiles.js';
import { UsageError } from './exit-codes.js';
import { createOutput, type Output } from './output.js';

/** The options every command takes. */
export interface GlobalOptions {
  baseUrl?: string;
  profile?: string;
  json?: boolean;
  debug?: boolean;
  color?: boolean;
}

// The request log of --debug goes to stderr, so stdout keeps only results; the client redacts it.
const stderrLogger: Logger = {
  error: (message) => process.stderr.write(`${message}\n`),
  warn: (message) => process.stderr.write(`${message}\n`),
  info: (message) => process.stderr.write(`${message}\n`),
  debug: (message) => process.stderr.write(`${message}\n`),
};

/** What a command runs with: its output, and the client built from flags, environment and profile. */
export class Context {
  readonly out: Output;
  /** The service address in force once the client is made, and where it came from (for error hints). */
  baseUrl: { url: string; from: string } | undefined;
  /** The last URL the service answered 404 to (for error hints). */
  notFoundUrl: string | undefined;

  constructor(readonly options: GlobalOptions) {
    this.out = createOutput({ json: options.json === true, color: options.color });
  }

  /** The profile in force and its settings (empty when the config file has none). */
  async profile(): Promise<{ name: string; settings: Profile }> {
    const config = await readConfig();
    const name = profileName(config, this.options.profile);
    if (this.options.profile !== undefined && !config.profiles[name] && name !== DEFAULT_PROFILE) {
      throw new UsageError(
        `No profile "${name}"; create it with \`dataworkz config set base-url <url> --profile ${name}\`.`,
      );
    }
    return { name, settings: config.profiles[name] ?? {} };
  }

  /**
   * The client: the flag, then the environment, then the profile, for the address and the credential.
   * `observe` sees every response (each attempt of each call), e.g. to notice the service pushing back.
   */
  async client(observe?: (response: Response) => void): Promise<Dataworkz> {
    const env = process.env;
    const { settings } = await this.profile();
    const baseUrl = this.options.baseUrl ?? env.DATAWORKZ_BASE_URL ?? settings.baseUrl;
    const from =
      this.options.baseUrl !== undefined
        ? '--base-url'
        : env.DATAWORKZ_BASE_URL !== undefined
          ? 'DATAWORKZ_BASE_URL'
          : 'the profile (`dataworkz config set base-url`)';
    if (!baseUrl) {
      throw new UsageError(
        'No service address: pass --base-url, set DATAWORKZ_BASE_URL, or run `dataworkz config set base-url <url>`.',
      );
    }
    // A credential from the environment replaces the profile's, whichever kind each is.
    const fromEnv = Boolean(env.DATAWORKZ_API_KEY || env.DATAWORKZ_TOKEN);
    const token = fromEnv ? env.DATAWORKZ_TOKEN || undefined : settings.token;
    const apiKey = token ? undefined : fromEnv ? env.DATAWORKZ_API_KEY : settings.apiKey;
    if (!apiKey && !token) {
      throw new UsageError(
        'No credential: set DATAWORKZ_API_KEY (or DATAWORKZ_TOKEN), or run `dataworkz config set api-key`, which reads the key from standard input.',
      );
    }
    const { Dataworkz } = await import('@dataworkz/client');
    this.baseUrl = { url: baseUrl, from };
    return new Dataworkz({
      baseUrl,
      ...(token ? { token } : { apiKey }),
      logLevel: this.options.debug ? 'debug' : 'off',
      logger: stderrLogger,
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await fetch(input, init);
        if (response.status === 404) {
          this.notFoundUrl =
            typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        }
        observe?.(response);
        return response;
      },
    });
  }
}
