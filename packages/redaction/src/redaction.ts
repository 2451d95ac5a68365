import {
  escapedPattern,
  escapeRegExp,
  MIN_SECRET_LENGTH,
  plainForms,
  utf8Bytes,
  utf16Forms,
} from './forms.js';
import { redactMembers } from './members.js';
import { isSecretName } from './names.js';

/** What every redacted value becomes. */
export const REDACTED = '[redacted]';

/**
 * How much more than it keeps a surface with a size limit reads, so that a secret the cut would split
 * is read whole and replaced before the cut (credentials are at most 8 KiB; escaping can double one).
 */
export const SCRUB_MARGIN_BYTES = 16 * 1024;

/** Headers whose value is a URL: its query and fragment are judged by name, like a request's. */
const urlHeaders = new Set(['location', 'content-location', 'refresh']);

/** Headers whose value is a media type: its parameters are judged by name. */
const mediaTypeHeaders = new Set(['content-type', 'accept']);

/**
 * A run of text that may be percent-encoded (a path, a query, a form value): no white space and no
 * quote, which end a token in the texts a secret rides in (JSON strings, headers, log lines).
 */
const percentRun = /[^\s"'<>\\%]*(?:%[0-9A-Fa-f]{2}[^\s"'<>\\%]*)+/g;

/** One media-type parameter (RFC 9110 §5.6.6): `; name=token` or `; name="quoted string"`. */
const mediaParameter = /;\s*([^\s;=]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)/g;

/** Headers that keep their scheme (`SSWS [redacted]`): which kind of credential was sent is worth seeing. */
const schemeHeaders = new Set(['authorization', 'proxy-authorization']);

/**
 * Members under which names are the names of security schemes, not secrets (an A2A agent card's
 * `securitySchemes: {sswsApiKey: {...}, bearerJwt: {...}}`): a declaration, public by design.
 */
const declarations = new Set(['securitySchemes', 'security']);

/** What a JSON text must contain to declare security schemes (see `declarations`). */
const mayDeclare = /"security(?:Schemes)?"/;

/** What a JSON text must contain for one of its members to have a secret name. */
const mayNameSecret =
  /key|token|secret|passw|passp|pwd|credential|sig|jwt|dpop|cookie|auth|session|bearer|\\u/i;

/**
 * The redaction policy, set up for a list of secrets (the credentials a caller presented, a server's
 * own keys): values under a secret name become `[redacted]` whole, whatever their type, and each
 * secret is replaced wherever it rides, in any of its forms (raw, percent-encoded, JSON-escaped,
 * base64, base64url). Secrets shorter than 8 characters are redacted by name only.
 */
export class Redaction {
  readonly #known: string[];
  readonly #forms: string[];
  #byteForms: string[] | undefined;
  #escaped: RegExp | undefined;

  constructor(secrets: Iterable<string | undefined>) {
    const known = [
      ...new Set([...secrets].filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH)),
    ];
    // Longest first: a secret that contains another is replaced whole.
    this.#forms = [...new Set(known.flatMap(plainForms))].sort((a, b) => b.length - a.length);
    this.#known = known.sort((a, b) => b.length - a.length);
  }

  /**
   * Text with every form of every secret replaced: written plainly, escaped, or percent-encoded in part
   * (`%64wk-...`: a run of text that holds a secret once decoded is replaced by its decoded, redacted
   * reading). Names are text too: a header, a parameter or a member named by a secret loses it.
   */
  text(text: string): string {
    let out = this.#plain(text);
    if (this.#known.length > 0 && out.includes('%')) {
      out = out.replace(percentRun, (run) => {
        for (const decoded of percentReadings(run)) {
          const clean = this.#plain(decoded);
          if (clean !== decoded) return clean;
        }
        return run;
      });
    }
    return out;
  }

  #plain(text: string): string {
    let out = text;
    for (const form of this.#forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    // Escapes could spell a secret a plain search misses (`\u0064`, `\/`): only then the slower pattern,
    // built the first time it is needed (a long token makes a long pattern).
    if (this.#known.length > 0 && out.includes('\\')) {
      this.#escaped ??= new RegExp(this.#known.map(escapedPattern).join('|'), 'g');
      out = out.replace(this.#escaped, REDACTED);
    }
    return out;
  }

  /**
   * Parsed JSON with secret-named members redacted whole and every secret replaced in the strings
   * (member names included); the same value when nothing was redacted.
   */
  value<T>(value: T): T {
    return this.#walk(value, true, true) as T;
  }

  /** A body's text: JSON as parsed (names judged, escapes read), re-serialised only when it changed. */
  body(text: string): string {
    const scrubbed = this.text(text);
    if (!mayNameSecret.test(scrubbed)) return scrubbed;
    // Secret names are judged in the text itself, unless it declares security schemes, whose names
    // (a declaration, public by design) only a walk of the parsed value can tell apart.
    if (!mayDeclare.test(scrubbed)) return redactMembers(scrubbed, isSecretName, `"${REDACTED}"`) ?? scrubbed;
    let parsed: unknown;
    try {
      parsed = JSON.parse(scrubbed);
    } catch {
      return scrubbed;
    }
    // The text was scrubbed as a whole: its strings read differently once parsed only if it escapes something.
    const walked = this.#walk(parsed, true, scrubbed.includes('\\'));
    // Untouched bodies keep their bytes as they were sent.
    return walked === parsed ? scrubbed : JSON.stringify(walked);
  }

  /** One header's value: `[redacted]` under a secret name (`Authorization` keeps its scheme), else scrubbed. */
  header(name: string, value: string): string {
    const lower = name.toLowerCase();
    if (schemeHeaders.has(lower)) {
      const scheme = /^(\S+)\s+\S/.exec(value.trim())?.[1];
      return scheme ? `${scheme} ${REDACTED}` : REDACTED;
    }
    if (isSecretName(lower)) return REDACTED;
    if (mediaTypeHeaders.has(lower)) return this.mediaType(value);
    return urlHeaders.has(lower) ? this.url(value) : this.text(value);
  }

  /**
   * A header's name: every secret replaced as in any text, and in any case too (header names are
   * case-insensitive: a Fetch API `Headers` hands them on in lower case).
   */
  headerName(name: string): string {
    const out = this.text(name);
    // As it is, and percent-decoded: in lower case, `%4C` and `%4c` read alike.
    for (const reading of [out, ...percentReadings(out)]) {
      const lower = reading.toLowerCase();
      if (!this.#known.some((secret) => lower.includes(secret.toLowerCase()))) continue;
      let redacted = reading;
      for (const secret of this.#known) {
        redacted = redacted.replace(new RegExp(escapeRegExp(secret), 'gi'), REDACTED);
      }
      return redacted;
    }
    return out;
  }

  /**
   * A media type (`Content-Type`, a HAR `mimeType`): parameters under secret names redacted, every
   * secret replaced in the rest (the type, the names and values of the other parameters).
   */
  mediaType(value: string): string {
    const scrubbed = this.text(value);
    if (!value.includes('=')) return scrubbed;
    return scrubbed.replace(mediaParameter, (whole, name: string) =>
      isSecretName(name) ? `${whole.slice(0, whole.indexOf('=') + 1)}${REDACTED}` : whole,
    );
  }

  /**
   * An \`application/x-www-form-urlencoded\` body: fields under secret names redacted, every secret
   * replaced in the rest, names included.
   */
  form(text: string): string {
    return this.#parameters(text);
  }

  /**
   * A URL (absolute or a path): user info dropped, query and fragment parameters under secret names
   * redacted, every secret replaced in the rest (the path too).
   */
  url(url: string): string {
    const cut = url.search(/[?#]/);
    const base = (cut < 0 ? url : url.slice(0, cut)).replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1');
    let out = this.text(base);
    if (cut < 0) return out;
    // `?a=1&b=2#access_token=...`: the query, then the fragment, each a list of parameters.
    for (const part of url.slice(cut).split(/(?=#)/)) out += part[0] + this.#parameters(part.slice(1));
    return out;
  }

  /** Bytes (a body that is not text) with every form of every secret replaced, read as Latin-1. */
  bytes(bytes: Uint8Array): Uint8Array {
    if (this.#forms.length === 0) return bytes;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    // Each form as UTF-8, and each secret as UTF-16 in either byte order.
    this.#byteForms ??= [
      ...this.#forms.map((form) => latin1Of(utf8Bytes(form))),
      ...this.#known.flatMap(utf16Forms),
    ].sort((a, b) => b.length - a.length);
    let out = binary;
    for (const raw of this.#byteForms) {
      if (out.includes(raw)) out = out.split(raw).join(REDACTED);
    }
    if (out === binary) return bytes;
    const result = new Uint8Array(out.length);
    for (let i = 0; i < out.length; i++) result[i] = out.charCodeAt(i);
    return result;
  }

  #parameters(text: string): string {
    return text
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq >= 0 && isSecretName(decodeName(pair.slice(0, eq)))) {
          return `${this.text(pair.slice(0, eq))}=${encodeURIComponent(REDACTED)}`;
        }
        const scrubbed = this.text(pair);
        if (scrubbed !== pair || eq < 0) return scrubbed;
        // A value percent-encoded over another form (`%5Cu0064...`) is read decoded too.
        const value = decodeName(pair.slice(eq + 1));
        const clean = this.text(value);
        return clean === value ? pair : `${pair.slice(0, eq + 1)}${encodeURIComponent(clean)}`;
      })
      .join('&');
  }

  #walk(value: unknown, judgeNames: boolean, scrub: boolean): unknown {
    if (typeof value === 'string') return scrub ? this.text(value) : value;
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const walked = this.#walk(item, judgeNames, scrub);
        if (walked !== item) changed = true;
        return walked;
      });
      return changed ? out : value;
    }
    // Class instances (Headers, errors, dates) are not data: JSON would flatten them.
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(value)) {
      const key = scrub ? this.text(name) : name;
      let walked: unknown;
      if (judgeNames && isSecretName(name) && member !== null && member !== '') walked = REDACTED;
      else walked = this.#walk(member, judgeNames && !declarations.has(name), scrub);
      if (walked !== member || key !== name) changed = true;
      out[key] = walked;
    }
    return changed ? out : value;
  }
}

/** A run's percent-decoded readings, once, twice, three times at most (`%2564wk-...`), while it changes. */
function percentReadings(run: string): string[] {
  const readings: string[] = [];
  let decoded = run;
  while (readings.length < 3 && /%[0-9A-Fa-f]{2}/.test(decoded)) {
    decoded = percentDecoded(decoded);
    readings.push(decoded);
  }
  return readings;
}

/**
 * A run of text with each `%XX` read as the byte it encodes, the bytes read as UTF-8 (a sequence that
 * is not UTF-8 becomes U+FFFD: the rest still reads).
 */
function percentDecoded(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    const bytes: number[] = [];
    for (let i = 0; i < run.length; i++) {
      if (run[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(run.slice(i + 1, i + 3))) {
        bytes.push(Number.parseInt(run.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...utf8Bytes(run[i] as string));
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  }
}

/** A query parameter's name as it reads decoded (`api%5Fkey`, `api+key`). */
function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

function latin1Of(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}
