import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import type { CassetteEntry } from '../../cassette/har.js';
import type { DriftFinding, DriftReport } from '../../drift-report.js';
import { openapi } from '../../generated/openapi.js';
import { lookupRoute } from '../../http/router.js';

interface SpecOperation {
  responses?: Record<string, SpecResponse>;
}
interface SpecResponse {
  $ref?: string;
  content?: Record<string, { schema?: Schema }>;
}
type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
interface Spec {
  paths: Record<string, Record<string, SpecOperation & { operationId?: string }>>;
  components: { responses: Record<string, SpecResponse>; schemas: Record<string, Schema> };
}

const spec = openapi as Spec;
const specId = 'https://spec.dataworkz.local/openapi.json';
const eventKinds = ['message', 'task', 'status-update', 'artifact-update'];

/**
 * Checks real responses against the spec, the emulator's own copy of spec/openapi.yaml: the status
 * and content type must be documented for the operation, a JSON body must match the schema (ajv,
 * every error), and each field must be one the schema names (unless it leaves the object open with
 * `additionalProperties`). A stream's events must each be a JSON-RPC response carrying an A2A event.
 */
export class DriftCheck {
  private readonly ajv: Ajv2020;
  private readonly byOperation = new Map<string, { path: string; method: string; op: SpecOperation }>();
  private readonly found = new Map<string, { responses: number; findings: Map<string, DriftFinding> }>();
  private readonly validators = new Map<string, ValidateFunction | undefined>();
  private responses = 0;

  constructor() {
    // OpenAPI 3.1 schemas are JSON Schema 2020-12; `example` and the like are OpenAPI annotations.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    // ajv-formats is CommonJS: under NodeNext its default import is the module object.
    (formatsModule.default as unknown as (ajv: Ajv2020) => Ajv2020)(this.ajv);
    this.ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31,
    });
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    this.ajv.addSchema({ ...spec, $id: specId });
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (op.operationId) this.byOperation.set(op.operationId, { path, method, op });
      }
    }
  }

  /** Checks one recorded exchange; `path` is the request's path as the caller sent it (`/api/...`). */
  check(entry: CassetteEntry, path: string): void {
    const method = entry.request.method.toUpperCase();
    const operationId = lookupRoute(method, path).operationId ?? `${method} ${path}`;
    this.responses += 1;
    const slot = this.slot(operationId);
    slot.responses += 1;
    const add = (finding: Omit<DriftFinding, 'count'>) => {
      const key = `${finding.kind}\n${finding.response}\n${finding.at}\n${finding.expected ?? ''}`;
      const seen = slot.findings.get(key);
      if (seen) seen.count += 1;
      else slot.findings.set(key, { ...finding, example: cut(finding.example), count: 1 });
    };
    const status = String(entry.response.status);
    const known = this.byOperation.get(operationId);
    if (!known) {
      add({ kind: 'undocumented-operation', response: status, at: '', example: `${method} ${path}` });
      return;
    }
    const responses = known.op.responses ?? {};
    const statusKey = [status, `${status[0]}XX`, 'default'].find((s) => responses[s] !== undefined);
    if (statusKey === undefined) {
      add({
        kind: 'undocumented-status',
        response: status,
        at: '',
        expected: Object.keys(responses).join(', '),
        example: entry.response.status,
      });
      return;
    }
    let response = responses[statusKey] as SpecResponse;
    let pointer = `paths/${pointerPart(known.path)}/${known.method}/responses/${pointerPart(statusKey)}`;
    if (response.$ref) {
      const name = response.$ref.split('/').pop() ?? '';
      response = spec.components.responses[name] ?? {};
      pointer = `components/responses/${pointerPart(name)}`;
    }
    const mediaType = (entry.response.content.mimeType.split(';')[0] ?? '').trim().toLowerCase();
    const content = response.content ?? {};
    if (mediaType === '' && Object.keys(content).length === 0) return;
    if (content[mediaType] === undefined) {
      add({
        kind: 'undocumented-content-type',
        response: status,
        at: '',
        expected: Object.keys(content).join(', ') || 'no body',
        example: entry.response.content.mimeType,
      });
      return;
    }
    if (entry._events) {
      for (const event of entry._events) this.checkEvent(event.data, `${status} event`, add);
      return;
    }
    if (!mediaType.includes('json')) return;
    let body: unknown;
    try {
      body = JSON.parse(entry.response.content.text ?? '');
    } catch {
      add({ kind: 'invalid-json', response: status, at: '', example: entry.response.content.text ?? '' });
      return;
    }
    const validate = this.validator(`${pointer}/content/${pointerPart(mediaType)}/schema`);
    if (validate && !validate(body)) {
      for (const finding of findingsOf(validate.errors ?? [], body, status)) add(finding);
    }
    const schema = content[mediaType]?.schema;
    if (schema) undeclared(body, schema, '', status, add);
  }

  report(): DriftReport {
    const operations: DriftReport['operations'] = {};
    for (const [operationId, slot] of this.found) {
      operations[operationId] = {
        responses: slot.responses,
        findings: [...slot.findings.values()].sort((a, b) => b.count - a.count),
      };
    }
    return { responses: this.responses, operations };
  }

  private checkEvent(data: string, response: string, add: (f: Omit<DriftFinding, 'count'>) => void) {
    let payload: { jsonrpc?: unknown; result?: { kind?: unknown }; error?: unknown } | null;
    try {
      payload = JSON.parse(data) as typeof payload;
    } catch {
      add({ kind: 'invalid-event', response, at: '', expected: 'JSON', example: data });
      return;
    }
    if (payload?.jsonrpc !== '2.0') {
      add({ kind: 'invalid-event', response, at: 'jsonrpc', expected: '"2.0"', example: payload?.jsonrpc });
    }
    if (payload?.error !== undefined) return;
    const kind = payload?.result?.kind;
    if (typeof kind !== 'string' || !eventKinds.includes(kind)) {
      add({
        kind: 'invalid-event',
        response,
        at: 'result.kind',
        expected: eventKinds.join(' | '),
        example: kind,
      });
    }
  }

  /** The compiled validator of a schema in the spec, looked up once per pointer. */
  private validator(schemaPointer: string): ValidateFunction | undefined {
    if (!this.validators.has(schemaPointer)) {
      this.validators.set(schemaPointer, this.ajv.getSchema(`${specId}#/${schemaPointer}`));
    }
    return this.validators.get(schemaPointer);
  }

  private slot(operationId: string) {
    let slot = this.found.get(operationId);
    if (!slot) {
      slot = { responses: 0, findings: new Map() };
      this.found.set(operationId, slot);
    }
    return slot;
  }
}

/** ajv's errors as findings; a value that fits none of a `oneOf`'s forms is one finding, not one per form. */
function findingsOf(errors: ErrorObject[], body: unknown, status: string): Omit<DriftFinding, 'count'>[] {
  const out: Omit<DriftFinding, 'count'>[] = [];
  for (const error of errors) {
    if (/\/(oneOf|anyOf)\/\d+/.test(error.schemaPath)) continue;
    const at = fieldPath(error.instancePath);
    if (error.keyword === 'required') {
      const name = (error.params as { missingProperty: string }).missingProperty;
      out.push({ kind: 'missing-required', response: status, at: join(at, name), example: null });
    } else if (error.keyword === 'type' || error.keyword === 'oneOf' || error.keyword === 'anyOf') {
      const expected =
        error.keyword === 'type'
          ? String((error.params as { type: string | string[] }).type)
          : 'one of its forms';
      out.push({
        kind: 'type-mismatch',
        response: status,
        at,
        expected,
        example: valueAt(body, error.instancePath),
      });
    } else {
      out.push({
        kind: 'invalid-value',
        response: status,
        at,
        expected: `${error.keyword}: ${error.message ?? ''}`,
        example: valueAt(body, error.instancePath),
      });
    }
  }
  return out;
}

/** Fields of the body the schema does not name, where it names its fields (an open map names none). */
function undeclared(
  value: unknown,
  given: Schema,
  at: string,
  status: string,
  add: (f: Omit<DriftFinding, 'count'>) => void,
): void {
  const schema = resolve(given);
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) undeclared(item, schema.items, `${at}[]`, status, add);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const forms = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].map(resolve);
  if (forms.length > 0) {
    const form = forms.find((f) => f.type === undefined || [f.type].flat().includes('object'));
    if (form) undeclared(value, form, at, status, add);
    return;
  }
  const parts = [schema, ...(schema.allOf ?? []).map(resolve)];
  const properties: Record<string, Schema> = Object.assign({}, ...parts.map((p) => p.properties ?? {}));
  const open = parts.map((p) => p.additionalProperties).find((a) => a !== undefined);
  for (const [name, member] of Object.entries(value)) {
    const declared = properties[name];
    if (declared) undeclared(member, declared, join(at, name), status, add);
    else if (typeof open === 'object') undeclared(member, open, join(at, '*'), status, add);
    else if (open === undefined && Object.keys(properties).length > 0) {
      add({ kind: 'undocumented-field', response: status, at: join(at, name), example: member });
    }
  }
}

function resolve(schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 16; hops++) {
    const name = current.$ref.split('/').pop() ?? '';
    current = spec.components.schemas[name] ?? {};
  }
  return current;
}

const join = (at: string, name: string) => (at === '' ? name : `${at}.${name}`);

/** `/context/0/link` as `context[].link`: one finding for every item of an array. */
function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((at, part) => (/^\d+$/.test(part) ? `${at}[]` : join(at, part)), '');
}

function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const part of pointer.split('/').slice(1)) {
    value = (value as Record<string, unknown> | undefined)?.[
      part.replaceAll('~1', '/').replaceAll('~0', '~')
    ];
  }
  return value;
}

function pointerPart(part: string): string {
  return part.replaceAll('~', '~0').replaceAll('/', '~1');
}

function cut(value: unknown): unknown {
  const text = JSON.stringify(value);
  if (text === undefined || text.length <= 200) return value;
  return `${text.slice(0, 197)}...`;
}
