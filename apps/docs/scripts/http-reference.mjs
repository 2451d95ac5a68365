// The HTTP API reference, rendered from spec/openapi.yaml into reference/http/ at build time (not
// committed): a page per tag with every operation, and a page of the schemas they use.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const site = fileURLToPath(new URL('..', import.meta.url));
const specPath = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));
const outDir = join(site, 'reference', 'http');
const spec = parse(await readFile(specPath, 'utf8'));
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

const refName = (ref) => ref.split('/').at(-1);
const resolve = (node) => {
  if (node?.$ref === undefined) return node;
  const [, , section, name] = node.$ref.split('/');
  return spec.components[section][name];
};
const anchor = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const cell = (text) =>
  String(text ?? '')
    .replaceAll('|', '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

/** A schema as a short type: a link for a named schema, `T[]`, `A \| B`, the type or enum otherwise. */
function typeOf(schema, from = '') {
  if (schema === undefined) return '';
  if (schema.$ref !== undefined)
    return `[${refName(schema.$ref)}](${from}schemas#${anchor(refName(schema.$ref))})`;
  if (schema.type === 'array') return `${typeOf(schema.items, from)}[]`;
  for (const key of ['anyOf', 'oneOf'])
    if (schema[key]) return schema[key].map((s) => typeOf(s, from)).join(' \\| ');
  if (schema.allOf) return schema.allOf.map((s) => typeOf(s, from)).join(' & ');
  if (schema.enum) return schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  const type = Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'any');
  return schema.format ? `${type} (${schema.format})` : type;
}

function propertiesTable(schema, from) {
  const props = Object.entries(schema.properties ?? {});
  if (props.length === 0) return '';
  const required = new Set(schema.required ?? []);
  const rows = props.map(
    ([name, prop]) =>
      `| \`${name}\` | ${typeOf(prop, from)} | ${required.has(name) ? 'yes' : ''} | ${cell(resolve(prop)?.description ?? prop.description)} |`,
  );
  return `| field | type | required | description |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n`;
}

/**
 * The SDK call that makes each operation (the spec has no word of the SDK): an operation missing here
 * fails the build, so a new one cannot reach the reference without it.
 */
const sdkCalls = {
  listAgents: 'await dw.agents.list();',
  respondToAgent: "await dw.agents.respond(agentId, { userText: 'Where is order 1001?', llmProviderId });",
  listAgentLlmProviders: 'await dw.agents.llmProviders();',
  getAgentCardLegacy: 'await dw.agents.card(agentId, { legacy: true });',
  getAgentCard: 'await dw.agents.card(agentId);',
  streamAgent:
    "import { streamAgent } from '@dataworkz/a2a';\n\nconst run = streamAgent(dw, agentId, { text: 'Where is order 1001?' });\nawait run.finalAnswer();",
  listQnaSystems: 'await dw.qna.list();',
  getQnaSystem: 'await dw.qna.get(systemId);',
  listQnaLlmProviders: 'await dw.qna.llmProviders(systemId);',
  searchQnaSystem: "await dw.qna.search(systemId, { query: 'reset password' });",
  searchQnaSystemWithHistory:
    "await dw.qna.search(systemId, { query: 'and for admins?', conversationHistory: [{ by: 'USER', text: 'How do I reset my password?' }] });",
  answerQnaQuestion:
    "await dw.qna.answer(systemId, { questionText: 'How do I reset my password?', llmProviderId });",
  answerQnaQuestionWithHistory:
    "await dw.qna.answer(systemId, { questionText: 'And for admins?', llmProviderId, conversationHistory: [{ by: 'USER', text: 'How do I reset my password?' }] });",
  listQnaFilters: 'await dw.qna.filters(systemId);',
  getQnaDocument: 'await dw.qna.document(systemId, documentId);',
  listQnaQuestionHistory: 'await dw.qna.history(systemId);',
  getQnaQuestion: 'await dw.qna.question(systemId, questionId);',
};

/** A value shaped by a schema: its own example where the spec gives one, else one per type. */
function exampleOf(schema, depth = 0) {
  const s = resolve(schema);
  if (s === undefined || depth > 6) return null;
  if (s.example !== undefined) return s.example;
  if (s.examples?.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => exampleOf(part, depth + 1)));
  for (const key of ['oneOf', 'anyOf']) if (s[key]) return exampleOf(s[key][0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'array') return [exampleOf(s.items, depth + 1)];
  if (type === 'object' || s.properties || s.additionalProperties) {
    const value = {};
    for (const [name, prop] of Object.entries(s.properties ?? {})) value[name] = exampleOf(prop, depth + 1);
    if (s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties)
      value.key = exampleOf(s.additionalProperties, depth + 1);
    return value;
  }
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return true;
  return s.format ? `<${s.format}>` : 'string';
}

/** The operation as a curl command against DATAWORKZ_BASE_URL, with an API key. */
function curlOf(path, method, op) {
  const params = (op.parameters ?? []).map(resolve);
  const shell = (name) => `$${name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`;
  let url = path.replace(/\{([^}]+)\}/g, (_, name) => shell(name));
  const query = params
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${p.name}=${p.example ?? p.schema?.example ?? shell(p.name)}`);
  if (query.length > 0) url += `?${query.join('&')}`;
  const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "$DATAWORKZ_BASE_URL${url}"`];
  lines.push('  -H "Authorization: SSWS $DATAWORKZ_API_KEY"');
  const json = resolve(op.requestBody)?.content?.['application/json'];
  if (json) {
    lines.push("  -H 'content-type: application/json'");
    lines.push(`  -d '${JSON.stringify(json.example ?? exampleOf(json.schema))}'`);
  }
  return lines.join(' \\\n');
}

/** The first 2xx response's example: the spec's own, or one shaped by its schema. */
function responseExample(op) {
  const [status, raw] = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith('2')) ?? [];
  const content = resolve(raw)?.content ?? {};
  const [type, media] = Object.entries(content)[0] ?? [];
  if (media === undefined) return undefined;
  const given = media.example ?? Object.values(media.examples ?? {})[0]?.value;
  const value = given ?? exampleOf(media.schema);
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return { status, type, text, given: given !== undefined };
}

function operationSection(path, method, op) {
  const lines = [`## ${op.summary ?? op.operationId} {#${anchor(op.operationId)}}`, ''];
  lines.push(
    `\`${method.toUpperCase()} ${path}\`${op.deprecated ? ' · **deprecated**' : ''} · operation \`${op.operationId}\``,
    '',
  );
  if (op.description) lines.push(op.description.trim(), '');
  const params = (op.parameters ?? []).map(resolve);
  if (params.length > 0) {
    lines.push('| parameter | in | type | required | description |', '| --- | --- | --- | --- | --- |');
    for (const p of params) {
      lines.push(
        `| \`${p.name}\` | ${p.in} | ${typeOf(p.schema, '')} | ${p.required ? 'yes' : ''} | ${cell(p.description)} |`,
      );
    }
    lines.push('');
  }
  const body = resolve(op.requestBody);
  if (body !== undefined) {
    lines.push(`**Request body** (${body.required ? 'required' : 'optional'}):`, '');
    for (const [type, media] of Object.entries(body.content ?? {}))
      lines.push(`- \`${type}\`: ${typeOf(media.schema, '')}`);
    lines.push('');
  }
  lines.push('| status | description | content |', '| --- | --- | --- |');
  for (const [status, raw] of Object.entries(op.responses ?? {})) {
    const response = resolve(raw);
    const content = Object.entries(response.content ?? {})
      .map(([type, media]) => `\`${type}\` ${typeOf(media.schema, '')}`)
      .join('<br>');
    lines.push(`| ${status} | ${cell(response.description)} | ${content} |`);
  }
  lines.push('');
  const sdk = sdkCalls[op.operationId];
  if (sdk === undefined)
    throw new Error(`http-reference: no SDK call for ${op.operationId}: add it to sdkCalls`);
  lines.push('**Request**, with curl:', '', '```sh', curlOf(path, method, op), '```', '');
  const example = responseExample(op);
  if (example) {
    const lang = example.type.includes('json') ? 'json' : 'text';
    lines.push(
      `**Response** ${example.status} (\`${example.type}\`), ${example.given ? 'the example the spec gives' : "shaped by the spec's schema"}:`,
      '',
      `\`\`\`${lang}`,
      example.text,
      '```',
      '',
    );
  }
  lines.push(
    '**From the SDK** (`dw` is a `new Dataworkz()`; see [the TypeScript API](/reference/api/)):',
    '',
    '```js',
    sdk,
    '```',
    '',
  );
  return lines.join('\n');
}

await mkdir(outDir, { recursive: true });
const byTag = new Map(spec.tags.map((t) => [t.name, { tag: t, sections: [] }]));
for (const [path, item] of Object.entries(spec.paths)) {
  for (const method of METHODS) {
    const op = item[method];
    if (op === undefined) continue;
    for (const tag of op.tags ?? []) byTag.get(tag)?.sections.push(operationSection(path, method, op));
  }
}
const titles = { agents: 'Agents endpoints', qna: 'QnA endpoints' };
for (const [name, { tag, sections }] of byTag) {
  const title = titles[name] ?? `${name} endpoints`;
  const page = [
    '---',
    `title: ${title}`,
    `description: ${cell(tag.description)}`,
    '---',
    '',
    `# ${title}`,
    '',
    `${tag.description} Rendered from \`spec/openapi.yaml\` (OpenAPI ${spec.openapi}).`,
    '',
    ...sections,
  ];
  await writeFile(join(outDir, `${name}.md`), page.join('\n'));
}

const schemaSections = Object.entries(spec.components.schemas).map(([name, schema]) => {
  const lines = [`## ${name} {#${anchor(name)}}`, ''];
  if (schema.description) lines.push(schema.description.trim(), '');
  const table = propertiesTable(schema, '');
  if (table) lines.push(table);
  else lines.push(`Type: ${typeOf(schema, '')}`, '');
  return lines.join('\n');
});
await writeFile(
  join(outDir, 'schemas.md'),
  [
    '---',
    'title: Schemas',
    'description: Every schema of the HTTP API, field by field.',
    '---',
    '',
    '# Schemas',
    '',
    ...schemaSections,
  ].join('\n'),
);

const security = Object.entries(spec.components.securitySchemes ?? {})
  .map(([name, s]) => `- \`${name}\`: ${cell(s.description ?? `${s.type} ${s.scheme ?? ''}`)}`)
  .join('\n');
await writeFile(
  join(outDir, 'index.md'),
  [
    '---',
    'title: HTTP API',
    'description: The service HTTP API, rendered from the OpenAPI document the SDK is generated from.',
    '---',
    '',
    `# ${spec.info.title}`,
    '',
    spec.info.description.trim(),
    '',
    '## Authentication',
    '',
    security,
    '',
    '## Endpoints',
    '',
    ...[...byTag].map(([name, { tag }]) => `- [${titles[name] ?? name}](./${name}): ${tag.description}`),
    '- [Schemas](./schemas): every request and response shape',
    '',
  ].join('\n'),
);
console.log(
  `http reference: ${[...byTag.values()].reduce((n, t) => n + t.sections.length, 0)} operations, ${schemaSections.length} schemas`,
);
