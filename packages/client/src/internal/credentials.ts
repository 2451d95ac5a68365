import { DataworkzError } from '../core/errors.js';

import type { TokenProvider } from '../core/token-provider.js';

/** The `Authorization` value one request sends, and which refresh it came after. */
export interface Grant {
  authorization: string;
  /** The number of refreshes completed when it was obtained. */
  generation: number;
}

// Visible ASCII and spaces only: CR, LF or other controls could split or forge a header.
const HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
// Servers refuse longer header lines; the bound also lets error text be scrubbed with a fixed margin.
const MAX_SECRET_LENGTH = 8 * 1024;
// A token function's results are remembered this long so error bodies echoing one can be scrubbed.
const REMEMBERED_TOKENS = 4;

/** Builds the `Authorization` header from an API key (`SSWS`) or a token (`Bearer`). */
export class Credentials {
  // Private fields (#): util.inspect and console.log of a client never show them.
  readonly #fixed: string | undefined;
  readonly #provider: TokenProvider | undefined;
  readonly #secrets: string[] = [];
  #generation = 0;
  #refreshing: Promise<string> | undefined;
  #refreshed: string | undefined;

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

  get refreshable(): boolean {
    return this.#provider !== undefined;
  }

  /** The header value for a new request; calls the token function when there is one. */
  async grant(): Promise<Grant> {
    const generation = this.#generation;
    if (this.#fixed !== undefined) return { authorization: this.#fixed, generation };
    return { authorization: await this.#call(false), generation };
  }

  /**
   * The header value to retry with after a 401 on `stale`. One refresh runs at a time: calls that get
   * a 401 while it runs share its result, and a call whose token predates a finished refresh takes
   * that refresh's token, so an identity provider that revokes the previous token on refresh sees
   * one refresh, not one per call.
   */
  async refresh(stale: Grant): Promise<string> {
    if (this.#refreshing) return this.#refreshing;
    if (stale.generation < this.#generation && this.#refreshed !== undefined) return this.#refreshed;
    const refreshing = this.#call(true);
    this.#refreshing = refreshing;
    try {
      this.#refreshed = await refreshing;
      this.#generation += 1;
      return this.#refreshed;
    } finally {
      this.#refreshing = undefined;
    }
  }

  /** Every secret this client has sent recently, for scrubbing text that might echo one. */
  knownSecrets(): readonly string[] {
    return this.#secrets;
  }

  /** The known secrets plus the one `authorization` carries: what a request that sent it must scrub. */
  secretsFor(authorization: string | undefined): readonly string[] {
    if (authorization === undefined) return this.#secrets;
    const secret = authorization.slice(authorization.indexOf(' ') + 1);
    return this.#secrets.includes(secret) ? this.#secrets : [...this.#secrets, secret];
  }

  async #call(refresh: boolean): Promise<string> {
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
}

function checkSecret(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new DataworkzError(`${what} must be a non-empty string.`);
  }
  if (value.length > MAX_SECRET_LENGTH) {
    throw new DataworkzError(`${what} is longer than ${MAX_SECRET_LENGTH} characters.`);
  }
  // The message never repeats the value: it is a secret.
  if (!HEADER_VALUE.test(value)) {
    throw new DataworkzError(
      `${what} contains characters not allowed in an HTTP header (such as CR, LF or leading/trailing spaces).`,
    );
  }
  return value;
}
