import { type Redaction, SCRUB_MARGIN_BYTES } from '@dataworkz/redaction';
import { type CapturedBody, type ContentDecoder, captureBody } from './body.js';
import { type MediaType, mediaTypeOf } from './media-type.js';
import {
  exchangeRedaction,
  type HeaderList,
  headerPairs,
  headerRecordOf,
  redactBody,
  redactHeaderList,
} from './redact.js';

/** What every exchange's capture is set up with. */
export interface CaptureOptions {
  /** The emulator's own secrets (its keys, its JWT secret): redacted wherever they show up. */
  secrets: readonly string[];
  /** How this runtime decodes a body's content coding (gzip, ...); without one, a coded body is unreadable. */
  decode?: ContentDecoder | undefined;
  /** The most bytes of a body a surface shows: the capture keeps a margin more, so a secret the cut would split is whole when redacted. */
  maxBodyBytes: number;
}

/** The request line and headers, captured and redacted. */
export interface CapturedHead {
  readonly method: string;
  readonly path: string;
  /** Without its `?`. */
  readonly query: string;
  /** The headers as sent (repeats kept), names and values redacted. */
  readonly headerList: HeaderList;
  /** The same, as one record (names in lower case, a repeated header's values joined with `, `). */
  readonly headers: Record<string, string>;
}

/** The request's body, captured and redacted. */
export interface CapturedRequestBody {
  readonly body: CapturedBody;
  /** Its size as received. */
  readonly bytes: number;
}

/** The answer's headers, captured and redacted, with what reading its body takes. */
export interface CapturedAnswer {
  readonly status: number;
  /** Names and values redacted, as one record. */
  readonly headers: Record<string, string>;
  readonly type: MediaType;
  /** Whether the body came in a content coding. */
  readonly coded: boolean;
  /** The exchange's redaction, with the cookies the answer sets (secrets too). */
  readonly redaction: Redaction;
}

/**
 * One exchange captured once and redacted once, by the one policy set up for it (see
 * `exchangeRedaction`), for every surface that shows it: the pipeline makes it as the exchange starts
 * and hands the same object to each listener (the console's log, the request record), which render
 * it and never read the raw request. Each part is captured the first time a surface asks for it (a
 * request no surface shows costs nothing), and only then.
 */
export class ExchangeCapture {
  private readonly sent: HeaderList;
  private readonly rawQuery: string;
  private readonly rawPath: string;
  private redaction: Redaction | undefined;
  private capturedHead: CapturedHead | undefined;
  private received: { bytes: Uint8Array; size: number } | undefined;
  private capturedBody: CapturedRequestBody | undefined;
  private capturedAnswer: CapturedAnswer | undefined;
  private answerCoding: string | undefined;
  private capturedAnswerBody: CapturedBody | undefined;

  constructor(
    private readonly options: CaptureOptions,
    private readonly method: string,
    target: string,
    private readonly requestHeaders: Record<string, string>,
    rawHeaders: readonly string[] | undefined,
  ) {
    const at = target.indexOf('?');
    this.rawPath = at < 0 ? target : target.slice(0, at);
    this.rawQuery = at < 0 ? '' : target.slice(at + 1);
    this.sent = rawHeaders ? headerPairs(rawHeaders) : Object.entries(requestHeaders);
  }

  /** How many bytes of a body the capture reads: the limit and a margin. */
  get keptBytes(): number {
    return this.options.maxBodyBytes + SCRUB_MARGIN_BYTES;
  }

  /** The request line and headers, redacted. */
  get head(): CapturedHead {
    if (this.capturedHead) return this.capturedHead;
    const redaction = this.requestRedaction();
    const headerList = redactHeaderList(this.sent, redaction);
    const { rawPath: path, rawQuery: query } = this;
    this.capturedHead = {
      method: this.method,
      path: redaction.text(path),
      query: query === '' ? '' : redaction.url(`?${query}`).slice(1),
      headerList,
      headers: headerRecordOf(headerList),
    };
    return this.capturedHead;
  }

  /** The body as read (its first bytes kept); the pipeline hands it over once, as the request's body is read. */
  requestBodyRead(bytes: Uint8Array, size: number): void {
    if (this.capturedBody) return;
    this.received ??= { bytes: bytes.subarray(0, this.keptBytes), size };
  }

  /** The request's body, redacted; undefined until it is read. */
  get requestBody(): CapturedRequestBody | undefined {
    if (this.capturedBody || !this.received) return this.capturedBody;
    const { bytes, size } = this.received;
    const body = captureBody({
      bytes,
      size,
      type: mediaTypeOf(this.requestHeaders['content-type']),
      contentEncoding: this.requestHeaders['content-encoding'],
      decode: this.options.decode,
    });
    this.capturedBody = { body: redactBody(body, this.requestRedaction()), bytes: size };
    // Only the redacted body stays.
    this.received = undefined;
    return this.capturedBody;
  }

  /**
   * The answer's status and headers (`list` as written, repeats kept), redacted: captured the first
   * time a surface asks, the same record after.
   */
  answered(status: number, list: HeaderList): CapturedAnswer {
    if (this.capturedAnswer) return this.capturedAnswer;
    const redaction = exchangeRedaction(this.options.secrets, this.sent, this.rawQuery, list);
    const record = headerRecordOf(list);
    this.answerCoding = record['content-encoding'];
    this.capturedAnswer = {
      status,
      headers: headerRecordOf(redactHeaderList(list, redaction)),
      type: mediaTypeOf(record['content-type']),
      coded: (this.answerCoding ?? '').trim() !== '',
      redaction,
    };
    return this.capturedAnswer;
  }

  /** The answer's body (its first bytes, `size` in all), redacted: captured the first time, the same record after. */
  answerBody(bytes: Uint8Array, size: number): CapturedBody {
    if (this.capturedAnswerBody) return this.capturedAnswerBody;
    const answer = this.capturedAnswer;
    if (!answer) throw new Error('The answer was not captured before its body');
    const body = captureBody({
      bytes,
      size,
      type: answer.type,
      contentEncoding: this.answerCoding,
      decode: this.options.decode,
    });
    this.capturedAnswerBody = redactBody(body, answer.redaction);
    return this.capturedAnswerBody;
  }

  private requestRedaction(): Redaction {
    this.redaction ??= exchangeRedaction(this.options.secrets, this.sent, this.rawQuery);
    return this.redaction;
  }
}
