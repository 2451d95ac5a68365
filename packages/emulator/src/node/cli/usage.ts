import type { Limits } from '../../limits.js';

/** The help line of each limit's flag; typed by the limits, so a new limit cannot go without one. */
const limitHelp: Record<keyof Limits, string> = {
  maxBodyBytes: 'largest request body accepted (413 above it)',
  requestTimeoutMs: 'time allowed to receive a whole request (408 past it)',
  streamTimeoutMs: 'longest an A2A stream stays open',
  maxConcurrentStreams: 'A2A streams open at once (429 above it)',
  maxTextLength: 'longest user text in characters (message, question, query, turn)',
  maxJsonDepth: 'deepest nesting of arrays and objects in a JSON body',
  maxTurnsPerContext: 'turns kept per conversation and read from a posted history',
  maxConversations: 'conversations (contextIds) kept',
  maxConversationBytes: 'size of all kept conversations',
  maxTasks: 'A2A tasks kept',
  maxTaskBytes: 'size of all kept tasks',
  maxQuestions: 'answered questions kept for the question history',
  maxQuestionBytes: 'size of all kept questions',
  maxRecordedRequests: 'requests kept in the request record',
  maxRecordedBytes: 'size of all recorded requests',
  maxRecordedBodyBytes: 'bytes of each body that are recorded',
  rateLimit: 'API requests per second per credential (429 with Retry-After above it)',
  rateLimitBurst: 'requests a credential may make at once before the rate applies',
};

/** `maxBodyBytes` as the user types it: `max-body-bytes`. */
export const flagOf = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export const limitNames = Object.keys(limitHelp) as (keyof Limits)[];

const column = (flag: string, help: string) => `  ${flag.padEnd(32)} ${help}\n`;

/** The help of the emulator's command line, under the name it was called by, with the limits' defaults. */
export function usage(defaults: Limits, name = 'dataworkz-emulator'): string {
  return `Usage: ${name} [options]

${column('--port <n>', 'port to listen on, 0 to 65535 (default 8787; 0 picks a free one)')}${column('--host <addr>', 'interface to listen on (default 127.0.0.1)')}${column('--api-key <key>', 'an accepted API key (repeatable; one is generated if none)')}${column('--jwt-secret <secret>', 'accept HS256 Bearer JWTs signed with this secret')}${column('--jwks <url|file>', 'accept Bearer JWTs verified with this JWKS')}${column('--allow-jwt-without-exp', 'accept JWTs that have no exp claim')}${column('--data <dir>', 'serve the documents of a folder as extra QnA systems')}${column('--cors <origins>', 'allowed browser origins, comma-separated, or *')}${column('--extension-base <url>', 'base of the provided-values extension URI (default https://dataworkz.com)')}${column('--no-default-llm', 'leave the account without a default LLM')}${column('--no-console', 'do not serve the web console at /console')}${column('--warm-encoder', 'load the sentence encoder at start, not at the first question')}${column('--agent-step-delay-ms <n>', 'pause before each task update of a stream (default 0)')}${column('--a2a-version <0.3|1.0>', 'the agent card for requests naming no A2A version (default 0.3)')}${column('--answer-artifact-chunk-chars <n>', 'also stream each answer as an artifact in chunks of n characters')}${column('--answer-temperature <t>', 'vary QnA answers between askings, 0 to 1, as an LLM at a temperature (default 0)')}${column('--answer-seed <n>', 'with --answer-temperature: seed the variation, for the same answers in the same order')}${column("--fault '<json>'", 'a fault rule in force from the start (repeatable)')}${column('--record <url>', 'forward API requests to this deployment and record them (needs --cassette)')}${column('--cassette <file.har>', 'the HAR file recording appends each exchange to')}${column('--drift-report <file.json>', "recording: write where the deployment's responses differ from the spec")}${column('--record-unreadable-bodies', 'recording: keep binary and cut JSON bodies (their secret-named fields cannot be redacted)')}${column('--replay <file.har>', 'serve a recorded cassette, with nothing behind it')}${column('--replay-speed <x>', 'replay pauses at x times the recorded pace (default 1; 0: none)')}${column('--replay-ignore <name>', 'a query parameter or dotted body member replay does not compare (repeatable)')}${column('--replay-fallback <error|emulate>', 'answer a request the cassette lacks with a 404 (default) or the emulator')}${column('--export-on-exit <dir>', "write the emulator's state to this folder when it stops")}${column('--import <dir>', 'start from a state exported to this folder')}${column('--log <level>', 'what to print on stderr: off, error, warn, info or debug (default error)')}${column('-h, --help', 'show this help')}
Limits (positive integers):
${limitNames.map((name) => column(`--${flagOf(name)} <n>`, `${limitHelp[name]} (default ${Number.isFinite(defaults[name]) ? defaults[name] : name === 'rateLimitBurst' ? 'the rate' : 'none'})`)).join('')}`;
}
