// Two more TypeDoc hooks for the reference, loaded by typedoc-schema-docs.mjs:
// - a method's result is shown by the name its source writes (`APIPromise<AnswerResponse>`, linked),
//   not as the structure TypeDoc resolves it to (`APIPromise<object & object>`), which it does for the
//   methods of a class exported as a type only, such as `Qna`;
// - a class that extends a framework's class (LangChain's `BaseRetriever`) lists its own members only:
//   the framework's inherited ones (77 of them, which also filled the search) are left to the
//   framework's own reference, which the class's page links to.

import { Comment, Converter, ReflectionKind } from 'typedoc';
import ts from 'typescript';

/** Whether a converted type spells out a structure where the source wrote a name. */
const spelledOut = (type) =>
  type?.type === 'reference' &&
  (type.typeArguments ?? []).some(
    (argument) => argument.type === 'intersection' || argument.type === 'reflection',
  );

/** @param {import('typedoc').Application} app */
export function namedReturnTypes(app) {
  app.converter.on(Converter.EVENT_CREATE_SIGNATURE, (context, signature, declaration) => {
    const node = declaration && 'type' in declaration ? declaration.type : undefined;
    // Only a result whose type arguments the source writes as names (`APIPromise<AnswerResponse>`).
    if (!node || !spelledOut(signature.type) || !ts.isTypeReferenceNode(node)) return;
    if (!node.typeArguments?.every((argument) => ts.isTypeReferenceNode(argument))) return;
    // Converted again from the node as written: the names stay names, and link to their pages.
    const written = context.converter.convertType(context, node);
    if (written.type !== 'reference') return;
    // The spelled-out type's own reflections go with it, or the project would keep them unreferenced.
    removeInlineDeclarations(context.project, signature.type);
    signature.type = written;
  });
}

/**
 * Removes from the project the declarations of the object types written inline in `type`.
 * @param {import('typedoc').ProjectReflection} project
 * @param {import('typedoc').SomeType | undefined} type
 */
export function removeInlineDeclarations(project, type) {
  if (type?.type === 'reflection') project.removeReflection(type.declaration);
  else if (type?.type === 'array') removeInlineDeclarations(project, type.elementType);
  else if (type?.type === 'reference') {
    for (const argument of type.typeArguments ?? []) removeInlineDeclarations(project, argument);
  } else if (type?.type === 'union' || type?.type === 'intersection') {
    for (const member of type.types) removeInlineDeclarations(project, member);
  }
}

/** @param {import('typedoc').Application} app */
export function externalReference(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const { project } = context;
    for (const reflection of project.getReflectionsByKind(ReflectionKind.Class)) {
      /** @type {import('typedoc').DeclarationReflection} */
      const cls = /** @type {any} */ (reflection);
      const external = (cls.extendedTypes ?? []).filter(
        (type) => type.type === 'reference' && type.reflection === undefined,
      );
      if (external.length === 0) continue;
      // Members inherited from outside the project (not overridden here) are the framework's to document.
      for (const member of [...(cls.children ?? [])]) {
        if (member.inheritedFrom && !member.overwrites && member.inheritedFrom.reflection === undefined) {
          project.removeReflection(member);
        }
      }
      cls.comment ??= new Comment();
      cls.comment.summary.push({
        kind: 'text',
        text: `\n\nOnly the members this class adds or overrides are listed here; those it inherits from ${external
          .map((type) => `\`${type.name}\``)
          .join(
            ', ',
          )} are in ${external[0]?.package ?? 'the framework'}'s own reference (linked under Extends).`,
      });
    }
  });
}
