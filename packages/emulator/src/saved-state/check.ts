import { checkFaultRule } from '../http/faults.js';
import type { Limits } from '../limits.js';
import { type EmulatorState, StateFormatError, stateFormat, stateVersion } from './snapshot.js';

/** The limits an imported record is held to: those the API enforces on what it is sent. */
export type StateLimits = Pick<
  Limits,
  'maxTextLength' | 'maxJsonDepth' | 'maxConversationBytes' | 'maxTaskBytes' | 'maxQuestionBytes'
>;

/** The parts of a state that have a file each. */
export type StatePart = Exclude<keyof EmulatorState, 'format' | 'version' | 'exportedAt'>;

const formats = new Set(['pdf', 'docx', 'txt', 'md', 'html']);

/**
 * Reads one file's records, throwing a StateFormatError that names the file and the record
 * (`systems[2].documents[0].title`) and says what it should be. It never quotes a value: an edited
 * file may hold anything, a credential included.
 */
class RecordReader {
  constructor(
    private readonly file: string,
    private readonly limits: StateLimits,
  ) {}

  fail(at: string, should: string): never {
    throw new StateFormatError(`${this.file}: ${at} ${should}`);
  }

  object(value: unknown, at: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(at, 'must be an object');
    return value as Record<string, unknown>;
  }

  array(value: unknown, at: string): unknown[] {
    if (!Array.isArray(value)) this.fail(at, 'must be an array');
    return value;
  }

  string(value: unknown, at: string): string {
    if (typeof value !== 'string') this.fail(at, 'must be a string');
    return value;
  }

  /** Text a caller sends the API (a question, a turn): refused there past `maxTextLength`, so here too. */
  text(value: unknown, at: string): string {
    const text = this.string(value, at);
    if (text.length > this.limits.maxTextLength) {
      this.fail(
        at,
        `is ${text.length} characters; the API takes at most ${this.limits.maxTextLength} (limit maxTextLength)`,
      );
    }
    return text;
  }

  optionalString(value: unknown, at: string): void {
    if (value !== undefined) this.string(value, at);
  }

  date(value: unknown, at: string): void {
    if (Number.isNaN(Date.parse(this.string(value, at)))) this.fail(at, 'must be an ISO 8601 date');
  }

  stringMap(value: unknown, at: string): void {
    for (const [name, v] of Object.entries(this.object(value, at))) this.string(v, `${at}.${name}`);
  }
}

/** Checks the manifest (`state.json`): the format's name and a version this emulator reads. */
export function checkManifest(value: unknown, file: string): void {
  const head = value as { format?: unknown; version?: unknown } | null;
  if (head?.format !== stateFormat) {
    throw new StateFormatError(`${file} is not an emulator state (format '${stateFormat}')`);
  }
  if (head.version !== stateVersion) {
    throw new StateFormatError(
      `${file} has version ${typeof head.version === 'number' ? head.version : 'unknown'}; this emulator reads version ${stateVersion}`,
    );
  }
}

/** Checks one part's file, record by record; returns it typed. */
export function checkPart<P extends StatePart>(
  part: P,
  value: unknown,
  file: string,
  limits: StateLimits,
): EmulatorState[P] {
  const r = new RecordReader(file, limits);
  if (part === 'cancelledOrders') {
    for (const [orderId, date] of Object.entries(r.object(value, part))) r.date(date, `${part}.${orderId}`);
    return value as EmulatorState[P];
  }
  const check = checks[part as Exclude<StatePart, 'cancelledOrders'>];
  r.array(value, part).forEach((record, i) => {
    check(r, record, `${part}[${i}]`);
  });
  return value as EmulatorState[P];
}

const checks: Record<
  Exclude<StatePart, 'cancelledOrders'>,
  (r: RecordReader, value: unknown, at: string) => void
> = {
  systems(r, value, at) {
    const system = r.object(value, at);
    for (const name of ['systemId', 'name', 'prompt', 'database', 'dataset', 'createdBy', 'modifiedBy']) {
      r.string(system[name], `${at}.${name}`);
    }
    r.string(system.createdDate, `${at}.createdDate`);
    r.string(system.modifiedDate, `${at}.modifiedDate`);
    r.stringMap(system.llms, `${at}.llms`);
    r.array(system.fields, `${at}.fields`).forEach((f, j) => {
      const field = r.object(f, `${at}.fields[${j}]`);
      r.string(field.name, `${at}.fields[${j}].name`);
      r.string(field.description, `${at}.fields[${j}].description`);
      if (field.type !== 'string' && field.type !== 'integer') {
        r.fail(`${at}.fields[${j}].type`, "must be 'string' or 'integer'");
      }
    });
    r.array(system.documents, `${at}.documents`).forEach((d, j) => {
      const where = `${at}.documents[${j}]`;
      const document = r.object(d, where);
      r.string(document.documentId, `${where}.documentId`);
      r.string(document.title, `${where}.title`);
      if (!formats.has(document.format as string)) {
        r.fail(`${where}.format`, `must be one of ${[...formats].join(', ')}`);
      }
      r.array(document.paragraphs, `${where}.paragraphs`).forEach((p, k) => {
        r.string(p, `${where}.paragraphs[${k}]`);
      });
      for (const [name, v] of Object.entries(r.object(document.metadata, `${where}.metadata`))) {
        if (typeof v !== 'string' && typeof v !== 'number') {
          r.fail(`${where}.metadata.${name}`, 'must be a string or a number');
        }
      }
      r.optionalString(document.fileName, `${where}.fileName`);
      r.optionalString(document.url, `${where}.url`);
    });
  },
  conversations(r, value, at) {
    const c = r.object(value, at);
    r.string(c.agentId, `${at}.agentId`);
    r.string(c.contextId, `${at}.contextId`);
    r.array(c.turns, `${at}.turns`).forEach((t, j) => {
      const turn = r.object(t, `${at}.turns[${j}]`);
      if (turn.by !== 'AI' && turn.by !== 'USER') r.fail(`${at}.turns[${j}].by`, "must be 'AI' or 'USER'");
      r.text(turn.text, `${at}.turns[${j}].text`);
    });
    r.object(c.contextValues, `${at}.contextValues`);
  },
  tasks(r, value, at) {
    const t = r.object(value, at);
    r.string(t.agentId, `${at}.agentId`);
    r.string(r.object(t.task, `${at}.task`).id, `${at}.task.id`);
  },
  questions(r, value, at) {
    const q = r.object(value, at);
    r.string(q.systemId, `${at}.systemId`);
    r.string(q.questionUuid, `${at}.questionUuid`);
    r.date(q.askedAt, `${at}.askedAt`);
    r.string(q.model, `${at}.model`);
    r.text(q.question, `${at}.question`);
    r.text(q.query, `${at}.query`);
    r.array(q.contexts, `${at}.contexts`).forEach((c, j) => {
      r.string(c, `${at}.contexts[${j}]`);
    });
    r.array(q.scores, `${at}.scores`).forEach((s, j) => {
      if (typeof s !== 'number') r.fail(`${at}.scores[${j}]`, 'must be a number');
    });
  },
  faults(r, value, at) {
    const f = r.object(value, at);
    if (!(Number.isInteger(f.remaining) && (f.remaining as number) > 0)) {
      r.fail(`${at}.remaining`, 'must be a positive integer');
    }
    try {
      checkFaultRule({ ...r.object(f.rule, `${at}.rule`), times: f.remaining });
    } catch (error) {
      r.fail(`${at}.rule`, `is not a fault rule: ${(error as Error).message}`);
    }
  },
};
