import type { Answer } from '../../http/answer.js';
import type { Log } from '../../logger.js';
import type { Incoming } from '../../pipeline.js';
import { CassetteFile } from './cassette-file.js';
import type { DriftQueue } from './drift-queue.js';
import { Forwarder } from './forward.js';

/** What the console and the exit summary show of a recording. */
export interface RecordingStatus {
  /** The deployment's origin (its base URL may hold nothing secret, but a path is not needed to show). */
  target: string;
  cassette: string;
  entries: number;
  bytes: number;
}

/**
 * Record mode on node:http: API requests go to the deployment through the forwarder, and each
 * exchange, once over, is appended to the cassette and queued for the drift check.
 */
export class RecordSession {
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly forwarder: Forwarder,
    private readonly file: CassetteFile,
    private readonly target: string,
  ) {}

  static async start(
    target: string,
    cassette: string,
    maxBodyBytes: number,
    log: Log,
    drift: DriftQueue | undefined,
    redaction: { secrets: readonly string[]; recordUnreadableBodies: boolean },
  ): Promise<RecordSession> {
    const file = await CassetteFile.open(cassette);
    let session: RecordSession | undefined;
    const forwarder = new Forwarder(target, {
      maxBodyBytes,
      ...redaction,
      onExchange: (entry, path) => {
        try {
          file.append(entry);
        } catch (error) {
          log.error(`The emulator could not write the cassette ${cassette}`, error);
        }
        drift?.add(entry, path);
        session?.changed();
      },
      onSent: () => drift?.waiting(),
      onError: (message) => log.warn(message),
    });
    session = new RecordSession(forwarder, file, new URL(target).origin);
    return session;
  }

  /** The deployment's answer to a request, recorded once it is over. */
  forward(incoming: Incoming, onClose: (listener: () => void) => void): Promise<Answer> {
    return this.forwarder.forward(incoming, onClose);
  }

  get status(): RecordingStatus {
    return {
      target: this.target,
      cassette: this.file.path,
      entries: this.file.entries,
      bytes: this.file.bytes,
    };
  }

  /** Calls `listener` after each entry written, until the returned function is called. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.forwarder.close();
    // An exchange that ended just before is recorded on the next turn of the loop: let it be written.
    await new Promise((resolve) => setImmediate(resolve));
    await this.file.close();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
