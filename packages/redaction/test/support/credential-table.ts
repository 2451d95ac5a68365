/**
 * The one table of secret names and credential forms every surface's redaction test is driven by:
 * the cassette, the drift report, the console's log and events, the recorder's summary, the client's
 * debug log and error messages. A surface passes when none of the hidden values, and no form of the
 * key, shows in what it outputs, and every public value still does.
 */

/** A key with the characters that encodings change: `/` (JSON's `\/`), `+` (percent, base64). */
export const TABLE_KEY = 'dwk_T4ble/K3y+f00d_9a7c';

/** Names whose values are secrets: JSON members, in snake, kebab, camel and upper case. */
export const secretMembers = [
  'apiToken',
  'secretKey',
  'AWS_SECRET_ACCESS_KEY',
  'SECRET_KEY',
  'AZURE_OPENAI_KEY',
  'clientSecret',
  'client-secret',
  'sessionToken',
  'openaiApiKey',
  'password',
  'credentials',
  'signature',
  'jwt',
  'dpop',
  'cookie',
  'access_token',
  'api_key',
  'token',
] as const;

/** Headers whose values are secrets (besides `Authorization`, which keeps its scheme). */
export const secretHeaders = [
  'cookie',
  'set-cookie',
  'Set-Cookie2',
  'x-auth-token',
  'api-key',
  'x-api-key',
  'x-goog-iap-jwt-assertion',
  'dpop',
] as const;

/** Query parameters whose values are secrets. */
export const secretQuery = ['api_key', 'access_token', 'jwt', 'token', 'key'] as const;

/** Names that look like secrets to a substring search but are not: their values are kept. */
export const publicNames = [
  'keyword',
  'maxTokens',
  'tokenCount',
  'nextPageToken',
  'keyId',
  'sortKey',
] as const;

/** The value a secret name holds in a test body: easy to look for. */
export const hidden = (name: string) => `hidden-${name.replace(/[^A-Za-z0-9]/g, '')}-value`;
/** The value a public name holds: it must survive. */
export const visible = (name: string) => `visible-${name.replace(/[^A-Za-z0-9]/g, '')}-value`;

/**
 * A JSON body with every secret member (string values, and one each holding an object, an array and a
 * number) and every public one, nested once so a walk has to go down.
 */
export function secretBody(): Record<string, unknown> {
  const members: Record<string, unknown> = {};
  for (const name of secretMembers) members[name] = hidden(name);
  members.credentials = { secretAccessKey: hidden('nestedCredentials') };
  members.password = [hidden('arrayPassword')];
  members.signature = 918273645;
  for (const name of publicNames) members[name] = visible(name);
  return { answer: 'ok', params: members };
}

/** Every value `secretBody`, the headers and the query hide. */
const hiddenValues = [
  ...new Set([
    ...secretMembers.map(hidden),
    ...secretHeaders.map(hidden),
    ...secretQuery.map(hidden),
    hidden('nestedCredentials'),
    hidden('arrayPassword'),
    '918273645',
  ]),
];

/** Every value that must be kept. */
const visibleValues = publicNames.map(visible);

/** The forms the key takes in the places it rides, each as a server might write it. */
export function credentialForms(key: string = TABLE_KEY): { form: string; text: string }[] {
  const b64 = (text: string) => btoa(text);
  const url = (text: string) => text.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  return [
    { form: 'raw', text: key },
    { form: 'percent-encoded', text: encodeURIComponent(key) },
    { form: 'JSON \\/ escape', text: key.replaceAll('/', '\\/') },
    {
      form: 'JSON \\u escapes',
      text: [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    },
    { form: 'base64', text: b64(key) },
    { form: 'base64url', text: url(b64(key)) },
    { form: 'base64 of SSWS <key>', text: b64(`SSWS ${key}`) },
    { form: 'base64 of key=<key>', text: b64(`key=${key}`) },
    { form: 'with its scheme', text: `SSWS ${key}` },
  ];
}

/** Which forms of the key an output still holds (empty: none), reading its escapes and encodings back. */
export function leaks(output: string, key: string = TABLE_KEY): string[] {
  const found = new Set<string>();
  for (const { form, text } of credentialForms(key)) if (output.includes(text)) found.add(form);
  const unescaped = output
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replaceAll('\\/', '/');
  if (unescaped.includes(key)) found.add('escaped');
  if (safeDecode(unescaped).includes(key)) found.add('percent-encoded');
  // Half a key is a leak too (a cut at a size limit).
  if (output.includes(key.slice(0, Math.ceil(key.length / 2)))) found.add('first half');
  return [...found];
}

/** Which hidden values an output still holds, and which visible ones it lost. */
export function nameLeaks(output: string): { shown: string[]; lost: string[] } {
  return {
    shown: hiddenValues.filter((value) => output.includes(value)),
    lost: visibleValues.filter((value) => !output.includes(value)),
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
