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
  'secretkey',
  'accesskey',
  'authorization',
  'pwd',
]);

/** Words that make a name secret when they end it, the thing it names (`apiToken`, `x-api-key`). */
// `bearer` only as the thing named: `bearerFormat` describes a scheme and holds nothing secret.
const secretNouns = new Set(['token', 'key', 'auth', 'sig', 'session', 'bearer']);

/**
 * Words after the thing a name names that say only how it is written (`private_key_pem`,
 * `tokenValue`, `secret_b64`): the name is judged as if they were not there.
 */
const formatSuffixes = new Set([
  'pem',
  'der',
  'jwk',
  'b64',
  'base64',
  'hex',
  'raw',
  'value',
  'str',
  'string',
  'text',
  'encoded',
  'bytes',
  'data',
]);

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
 * Whether the value of a header, query parameter, form field or JSON member of this name is a secret:
 * a name with a word such as `secret`, `password`, `credentials`, `signature`, `jwt`, `dpop` or
 * `cookie`, or one ending in `token`, `key`, `auth`, `sig`, `session` or `bearer` (but `nextPageToken`,
 * `sortKey`). Plurals count as the word (`apiKeys`, `passwords`), and so do names that say how the
 * secret is written after it (`private_key_pem`, `tokenValue`).
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

/**
 * A word as its singular (`keys`, `passwords`, `accessTokens`): a list of secrets is as secret as one.
 * Only a word that is one of the known words once the `s` is gone is changed.
 */
function singular(word: string): string {
  if (word.length < 4 || !word.endsWith('s')) return word;
  const one = word.slice(0, -1);
  return secretWords.has(one) || secretNouns.has(one) || endsInToken(one) ? one : word;
}

/** One word that ends in `token` (`accesstoken`, `idtoken`): a compound written as one word. */
function endsInToken(word: string): boolean {
  return word.length > 5 && word.endsWith('token');
}

function judge(name: string): boolean {
  const words = wordsOf(name).map(singular);
  while (words.length > 1 && formatSuffixes.has(words.at(-1) as string)) words.pop();
  if (words.some((word) => secretWords.has(word))) return true;
  // Two words that spell a secret word together (`api key`, `private key`).
  for (let i = 1; i < words.length; i++) {
    if (secretWords.has(`${words[i - 1]}${words[i]}`)) return true;
  }
  const last = words.at(-1);
  if (last === undefined) return false;
  if (endsInToken(last) && !publicQualifiers.has(last.slice(0, -5))) return true;
  if (!secretNouns.has(last)) return false;
  const before = words.at(-2);
  return before === undefined || !publicQualifiers.has(before);
}
