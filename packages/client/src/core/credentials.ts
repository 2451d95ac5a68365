import { DataworkzError } from './errors.js';

/** Called before each request; `refresh` is true after a 401, when a cached token should be renewed. */
export type TokenProvider = (context: { refresh: boolean }) => string | Promise<string>;

// Visible ASCII and spaces only: CR, LF or other controls could split or forge a header.
const HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
// A token function's results are remembered this long so error bodies echoing one can be scrubbed.
const REMEMBERED_TOKENS = 4;

/** Builds the `Authorization` header from an API key (`SSWS`) or a token (`Bearer`). */
export class Credentials {
  // Private fields (#): util.inspect and console.log of a client never show them.
  readonly #fixed: string | undefined;
  readonly #provider: TokenProvider | undefined;
  readonly #secrets: string[] = [];

  constructor(apiKey: string | undefined, token: string | TokenProvider | undefined) {
    if (apiKey !== undefined && token !== undefined) {
      throw new DataworkzError('Pass either apiKey or token, not both.');
    }
    if (apiKey === undefined && token === undefined) {
      throw new DataworkzError(
        'Missing credential: pass apiKey or token, or set the DATAWORKZ_API_KEY environment variable.',
      );
    }
    if (typeof token === 'function') {
      this.#provider = token;
    } else if (apiKey !== undefined) {
      this.#fixed = `SSWS ${checkSecret(apiKey, 'apiKey')}`;
      this.#secrets.push(apiKey);
    } else if (token !== undefined) {
      this.#fixed = `Bearer ${checkSecret(token, 'token')}`;
      this.#secrets.push(token);
    }
  }

  /** The header value without awaiting, when the credential is fixed. */
  get fixedAuthorization(): string | undefined {
    return this.#fixed;
  }

  /** The header value; calls the token function when there is one. */
  async authorization(refresh = false): Promise<string> {
    if (this.#fixed !== undefined) return this.#fixed;
    const provider = this.#provider as TokenProvider;
    let token: unknown;
    try {
      token = await provider({ refresh });
    } catch (cause) {
      throw new DataworkzError('The token function failed.', { cause });
    }
    const value = checkSecret(token, 'The token function result');
    if (!this.#secrets.includes(value)) {
      this.#secrets.push(value);
      if (this.#secrets.length > REMEMBERED_TOKENS) this.#secrets.shift();
    }
    return `Bearer ${value}`;
  }

  get refreshable(): boolean {
    return this.#provider !== undefined;
  }

  /** Every secret this client has sent, for scrubbing text that might echo one. */
  knownSecrets(): readonly string[] {
    return this.#secrets;
  }
}

function checkSecret(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new DataworkzError(`${what} must be a non-empty string.`);
  }
  // The message never repeats the value: it is a secret.
  if (!HEADER_VALUE.test(value)) {
    throw new DataworkzError(
      `${what} contains characters not allowed in an HTTP header (such as CR, LF or leading/trailing spaces).`,
    );
  }
  return value;
}
