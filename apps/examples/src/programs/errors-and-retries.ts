// Errors are typed: catch them by class. Transient failures (connection errors, 408, 409, 429, 5xx)
// are retried with backoff, honouring Retry-After; each call can change the retry count and time-out.
import Dataworkz, {
  APIConnectionTimeoutError,
  AuthenticationError,
  type Logger,
  QueryFailedError,
} from '@dataworkz/client';
import { field, heading, item } from '../support/output.js';
import { chooseSystemId, onEmulator } from '../support/target.js';

const dw = new Dataworkz();
const systemId = await chooseSystemId(dw);

heading('A wrong API key');
const badKey = 'not-a-valid-key';
try {
  await new Dataworkz({ baseUrl: dw.baseUrl, apiKey: badKey }).qna.list();
  throw new Error('The service accepted a wrong key.');
} catch (error) {
  if (!(error instanceof AuthenticationError)) throw error;
  field('caught', `${error.name} (HTTP ${error.status})`);
  field('message', error.message);
  // Credentials never appear in messages, properties or JSON of an error.
  field('key in the error', String(JSON.stringify(error).includes(badKey) || error.message.includes(badKey)));
}

heading('A FAILED query');
try {
  // Raw filter text is accepted too; this one names a field the system does not have.
  await dw.qna.search(systemId, { query: 'install', filter: "no_such_field = 'x'" });
  throw new Error('The service accepted a filter on an unknown field.');
} catch (error) {
  if (!(error instanceof QueryFailedError)) throw error;
  field('caught', `${error.name} (HTTP ${error.status})`);
  field('failureReason', error.failureReason ?? '');
}

heading('Retries');
// Retries show at log level `info`; a logger can send them anywhere.
const retries: string[] = [];
const logger: Logger = {
  error: (message) => item(`error: ${message}`),
  warn: (message) => item(`warn: ${message}`),
  info: (message) => retries.push(message),
  debug: () => {},
};
const patient = new Dataworkz({
  baseUrl: dw.baseUrl,
  apiKey: process.env.DATAWORKZ_API_KEY,
  maxRetries: 3,
  logger,
  logLevel: 'info',
});

if (onEmulator) {
  // The emulator fails the next two calls of this route with 503 and `Retry-After: 0`.
  await addEmulatorFault({ route: 'listQnaSystems', status: 503, headers: { 'retry-after': '0' }, times: 2 });
}
const systems = await patient.qna.list();
field('result', `${Object.keys(systems).length} systems after ${retries.length} retries`);
for (const line of retries) item(`log: ${line}`);

if (onEmulator) {
  heading('A time-out');
  await addEmulatorFault({ route: 'listQnaSystems', latencyMs: 2_000, times: 1 });
  try {
    // Per-call options override the client's: a short time-out and no retry.
    await dw.qna.list({ timeout: 200, maxRetries: 0 });
    throw new Error('The call did not time out.');
  } catch (error) {
    if (!(error instanceof APIConnectionTimeoutError)) throw error;
    field('caught', `${error.name}: ${error.message}`);
  }
}

/** Fault injection through the emulator's control endpoint (it takes the same credential). */
async function addEmulatorFault(rule: Record<string, unknown>): Promise<void> {
  await dw.authorizedFetch(`${dw.baseUrl}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
}
