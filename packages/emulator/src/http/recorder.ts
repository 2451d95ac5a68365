/** One request as the emulator received it. */
export interface RecordedRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  /** The raw query, without `?`. */
  query: string;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

/** The most recent requests, newest last, capped so a long-running emulator stays small. */
export class RequestRecorder {
  readonly requests: RecordedRequest[] = [];

  constructor(private readonly cap = 500) {}

  record(request: RecordedRequest): void {
    this.requests.push(request);
    if (this.requests.length > this.cap) this.requests.splice(0, this.requests.length - this.cap);
  }

  clear(): void {
    this.requests.length = 0;
  }
}
