import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { sameBytes, sha256Bytes } from '../neutral/crypto.js';
import { HttpError } from './errors.js';

export interface AuthOptions {
  apiKeys: string[];
  jwtSecret?: string;
  /** A JWKS document, or the URL of one. */
  jwks?: JSONWebKeySet | string;
  /** Accept JWTs without an `exp` claim (refused by default: such a token never expires). */
  allowJwtWithoutExp?: boolean;
}

const challenge = { 'www-authenticate': 'SSWS, Bearer' };

const unauthorized = (message: string) => new HttpError(401, message, challenge, 'UNAUTHORIZED');

/** How many distinct presented API keys keep a remembered verdict; past it the oldest is forgotten. */
const verdictCacheSize = 256;

/** Checks `Authorization`: `SSWS <key>` against the keys, `Bearer <jwt>` with jose. Never echoes the credential. */
export class Authenticator {
  private readonly keyDigests: Uint8Array[];
  private readonly secret?: Uint8Array;
  /** The JWKS as given (its URL parsed at once, so a bad one fails the start). */
  private readonly jwks?: URL | JSONWebKeySet;
  /** jose and the key set, loaded on the first Bearer token: most emulators only ever see API keys. */
  private jose?: Promise<{ jose: typeof import('jose'); keySet: JWTVerifyGetKey | undefined }>;
  private readonly requiredClaims: string[];
  // A client sends the same key on every request: hashing it each time is the check's whole cost.
  private readonly keyVerdicts = new Map<string, boolean>();

  constructor(options: AuthOptions) {
    this.keyDigests = options.apiKeys.map(sha256Bytes);
    this.requiredClaims = options.allowJwtWithoutExp ? [] : ['exp'];
    if (options.jwtSecret) this.secret = new TextEncoder().encode(options.jwtSecret);
    if (typeof options.jwks === 'string') this.jwks = new URL(options.jwks);
    else if (options.jwks) {
      // jose's own test of a key set, done now: jose itself loads only with the first Bearer token.
      const { keys } = options.jwks as { keys?: unknown };
      if (!Array.isArray(keys) || !keys.every((key) => key !== null && typeof key === 'object')) {
        throw new TypeError('Option jwks must be a JSON Web Key Set ({ keys: [...] }) or its URL');
      }
      this.jwks = options.jwks;
    }
  }

  async check(header: string | undefined): Promise<void> {
    if (header === undefined || header.trim() === '') throw unauthorized('Missing Authorization header');
    const match = /^(\S+) +(\S+)\s*$/.exec(header.trim());
    if (!match)
      throw unauthorized('Malformed Authorization header: expected SSWS <API_KEY> or Bearer <ACCESS_TOKEN>');
    const scheme = (match[1] ?? '').toLowerCase();
    const credential = match[2] ?? '';
    if (scheme === 'ssws') return this.checkKey(credential);
    if (scheme === 'bearer') return this.checkJwt(credential);
    throw unauthorized('Unsupported Authorization scheme: expected SSWS or Bearer');
  }

  private checkKey(key: string): void {
    let valid = this.keyVerdicts.get(key);
    if (valid === undefined) {
      valid = this.compareKey(key);
      if (this.keyVerdicts.size >= verdictCacheSize) {
        const oldest = this.keyVerdicts.keys().next().value;
        if (oldest !== undefined) this.keyVerdicts.delete(oldest);
      }
      this.keyVerdicts.set(key, valid);
    }
    if (!valid) throw unauthorized('Invalid API key');
  }

  private compareKey(key: string): boolean {
    const presented = sha256Bytes(key);
    // Compare every configured key so the time taken does not reveal which one nearly matched.
    let found = false;
    for (const known of this.keyDigests) found = sameBytes(known, presented) || found;
    return found;
  }

  private async checkJwt(token: string): Promise<void> {
    if (!this.secret && !this.jwks) {
      throw unauthorized('Bearer tokens are not accepted: no JWT secret or JWKS is configured');
    }
    this.jose ??= this.loadJose();
    const { jose, keySet } = await this.jose;
    const { errors } = jose;
    try {
      const { alg } = jose.decodeProtectedHeader(token);
      if (this.secret && (alg === 'HS256' || !keySet)) {
        await jose.jwtVerify(token, this.secret, {
          algorithms: ['HS256'],
          requiredClaims: this.requiredClaims,
        });
      } else if (keySet) {
        await jose.jwtVerify(token, keySet, { requiredClaims: this.requiredClaims });
      }
    } catch (error) {
      // Whatever jose rejects (format, signature, claims, key lookup) is a bad credential, not a crash.
      if (error instanceof errors.JWTExpired) throw unauthorized('Access token expired');
      if (
        error instanceof errors.JWTClaimValidationFailed &&
        error.claim === 'exp' &&
        error.reason === 'missing'
      )
        throw unauthorized('Access token has no expiry (exp)');
      throw unauthorized('Invalid access token');
    }
  }

  private async loadJose() {
    const jose = await import('jose');
    const { jwks } = this;
    const keySet =
      jwks instanceof URL ? jose.createRemoteJWKSet(jwks) : jwks ? jose.createLocalJWKSet(jwks) : undefined;
    return { jose, keySet };
  }
}
