// A TypeDoc plugin: the client's data types (`type AgentListItem = Schemas['AgentListItem']`, from
// the types openapi-typescript generates) are documented with the spec's own words. openapi-typescript
// writes a description as an `@description` tag, which TypeDoc would print under a "Description"
// heading; here it becomes the text itself. A type named after a schema, and given no comment of its
// own, takes the schema's description, and a field typed with another schema links to that type.

import { ArrayType, Comment, Converter, ReferenceType, ReflectionKind } from 'typedoc';
import ts from 'typescript';
import { externalReference, namedReturnTypes, removeInlineDeclarations } from './typedoc-named-types.mjs';

/** @param {import('typedoc').Application} app */
export function load(app) {
  namedReturnTypes(app);
  externalReference(app);
  /** @type {Map<import('typedoc').Reflection, string>} */
  const schemaDescriptions = new Map();
  /** The type documenting each schema, by the schema's name. @type {Map<string, import('typedoc').Reflection>} */
  const typeOfSchema = new Map();
  /** Fields whose declared type names a schema, with that type node. @type {Map<import('typedoc').DeclarationReflection, ts.TypeNode>} */
  const fields = new Map();

  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    const declaration = context.getSymbolFromReflection(reflection)?.declarations?.[0];
    if (reflection.kindOf(ReflectionKind.Property) && declaration && ts.isPropertySignature(declaration)) {
      if (declaration.type) fields.set(reflection, declaration.type);
      return;
    }
    if (!reflection.kindOf(ReflectionKind.Interface | ReflectionKind.TypeAlias)) return;
    if (!declaration || !ts.isTypeAliasDeclaration(declaration)) return;
    const schema = schemaNamed(declaration.type, false);
    if (schema) typeOfSchema.set(schema, reflection);
    const description = schemaDescription(context.checker, declaration.type);
    if (description) schemaDescriptions.set(reflection, description);
  });

  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      const { comment } = reflection;
      const tag = comment?.getTag('@description');
      if (comment && tag) {
        if (comment.summary.length === 0) comment.summary = tag.content;
        comment.removeTags('@description');
      }
    }
    for (const [reflection, description] of schemaDescriptions) {
      reflection.comment ??= new Comment();
      if (reflection.comment.summary.length === 0) {
        reflection.comment.summary = [{ kind: 'text', text: description }];
      }
    }
    schemaDescriptions.clear();
    // The generated field types (`components["schemas"]["SearchResultItem"][]`) read as `object[]` once
    // resolved; the type documenting that schema is named instead.
    for (const [field, node] of fields) {
      const element = ts.isArrayTypeNode(node) ? node.elementType : node;
      const target = typeOfSchema.get(schemaNamed(element, true) ?? '');
      if (!target) continue;
      const reference = ReferenceType.createResolvedReference(target.name, target, context.project);
      // The resolved type's own reflections go with it, or the project would keep them unreferenced.
      removeInlineDeclarations(context.project, field.type);
      field.type = element === node ? reference : new ArrayType(reference);
    }
    // With one project per package, a package's types are linked within its own pages only.
    fields.clear();
    typeOfSchema.clear();
  });
}

/**
 * The schema a type node names: `Schemas['Name']` as the client's types write it, or (`generated`)
 * `components["schemas"]["Name"]` as the generated ones do.
 * @param {ts.TypeNode} node
 * @param {boolean} generated
 */
function schemaNamed(node, generated) {
  if (!ts.isIndexedAccessTypeNode(node)) return undefined;
  const object = node.objectType;
  const isSchemas = generated
    ? ts.isIndexedAccessTypeNode(object) &&
      isNamed(object.objectType, 'components') &&
      literalText(object.indexType) === 'schemas'
    : isNamed(object, 'Schemas');
  return isSchemas ? literalText(node.indexType) : undefined;
}

/** @param {ts.TypeNode} node */
const literalText = (node) =>
  ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal) ? node.literal.text : undefined;

/**
 * @param {ts.TypeNode} node
 * @param {string} name
 */
const isNamed = (node, name) => ts.isTypeReferenceNode(node) && node.getText() === name;

/**
 * The `@description` of the schema `Schemas['Name']` names, read from its generated declaration.
 * @param {ts.TypeChecker} checker
 * @param {ts.TypeNode} node
 */
function schemaDescription(checker, node) {
  const name = schemaNamed(node, false);
  if (name === undefined || !ts.isIndexedAccessTypeNode(node)) return undefined;
  const property = checker.getTypeAtLocation(node.objectType).getProperty(name);
  const tag = property?.getJsDocTags(checker).find((t) => t.name === 'description');
  const text = tag?.text
    ?.map((part) => part.text)
    .join('')
    .trim();
  return text || undefined;
}
