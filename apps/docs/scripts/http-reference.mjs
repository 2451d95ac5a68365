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
