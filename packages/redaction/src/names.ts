/**
 * Which names hold secrets: a header, a query parameter or a JSON member is judged by its words
 * (`x-api-key`, `apiKey`, `api_key`, `API_KEY` all read `api key`), never by a substring, so
 * `keyword`, `maxTokens` and `tokenCount` keep their values while `apiToken` and `secretKey` do not.
 */

/** Words that make a name secret wherever they stand in it (`clientSecret`, `x-goog-iap-jwt-assertion`). */
const secretWords = new Set([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'signature',
  'jwt',
  'dpop',
  'cookie',
  'cookie2',
  'apikey',
  'privatekey',
  'authorization',
]);

/** Words that make a name secret when they end it, the thing it names (`apiToken`, `x-api-key`). */
const secretNouns = new Set(['token', 'key', 'auth', 'sig', 'session']);

/**
 * Words before a final `token` or `key` that name something public: a page cursor, a count, the
 * key of a row or of a cache (`nextPageToken`, `maxToken`, `sortKey`, `publicKey`).
 */
const publicQualifiers = new Set([
  'page',
  'next',
  'continuation',
  'cursor',
  'progress',
  'max',
  'sync',
  'stop',
  'public',
  'primary',
  'sort',
  'partition',
  'cache',
  'idempotency',
  'foreign',
  'lookup',
  'group',
  'row',
  'object',
  'routing',
  'shard',
  'translation',
]);

/** A name's words in lower case: `openaiApiKey` → openai api key, `AWS_SECRET_ACCESS_KEY` → aws secret access key. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/**
 * Whether the value of a header, query parameter or JSON member of this name is a secret: a name
 * with a word such as `secret`, `password`, `credentials`, `signature`, `jwt`, `dpop` or `cookie`,
 * or one ending in `token`, `key`, `auth`, `sig` or `session` (but `nextPageToken`, `sortKey`).
 */
export function isSecretName(name: string): boolean {
  let known = judged.get(name);
  if (known === undefined) {
    known = judge(name);
    // Names repeat (every item of a list has the same members): each is split into words once.
    if (judged.size >= maxJudged) judged.clear();
    judged.set(name, known);
  }
  return known;
}

const judged = new Map<string, boolean>();
const maxJudged = 4096;

function judge(name: string): boolean {
  const words = wordsOf(name);
  if (words.some((word) => secretWords.has(word))) return true;
  const last = words.at(-1);
  if (last === undefined || !secretNouns.has(last)) return false;
  const before = words.at(-2);
  return before === undefined || !publicQualifiers.has(before);
}
