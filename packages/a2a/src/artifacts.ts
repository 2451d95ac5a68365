import type { A2AArtifact, A2APart, A2ATextPart } from './a2a-types.js';

// Text chunks are joined in groups this size: a long stream keeps a few long strings, not one per chunk.
const JOIN_EVERY = 64;

/** `open`: the run's own last text part, which later text chunks extend once `pending` is flushed. */
type Assembly = { artifact: A2AArtifact; open: A2ATextPart | undefined; pending: string[] };

function isPlainText(part: A2APart): part is A2ATextPart {
  return part.kind === 'text' && typeof part.text === 'string' && part.metadata === undefined;
}

/** The artifacts of a run, chunks assembled: adjacent plain text parts merge, so few strings are kept. */
export class ArtifactAssembly {
  readonly #byId = new Map<string, Assembly>();

  add(artifact: A2AArtifact, append: boolean): void {
    const parts = Array.isArray(artifact.parts) ? artifact.parts : [];
    let assembly = append ? this.#byId.get(artifact.artifactId) : undefined;
    if (!assembly) {
      assembly = { artifact: { ...artifact, parts: [] }, open: undefined, pending: [] };
      this.#byId.set(artifact.artifactId, assembly);
    }
    for (const part of parts) {
      if (isPlainText(part)) {
        if (assembly.open) {
          assembly.pending.push(part.text);
          if (assembly.pending.length >= JOIN_EVERY) flush(assembly);
        } else {
          // A copy: the part is the run's to extend, and the event's own part stays as it was sent.
          assembly.open = { kind: 'text', text: part.text };
          assembly.artifact.parts.push(assembly.open);
        }
      } else {
        flush(assembly);
        assembly.open = undefined;
        assembly.artifact.parts.push(part);
      }
    }
  }

  /** Starts again from a task's snapshot: it holds every chunk so far, delivered or missed. */
  replace(artifacts: readonly A2AArtifact[]): void {
    this.#byId.clear();
    for (const artifact of artifacts) this.add(artifact, false);
  }

  result(): A2AArtifact[] {
    return Array.from(this.#byId.values(), flush);
  }
}

/** Appends the pending text; returns the artifact. */
function flush(assembly: Assembly): A2AArtifact {
  if (assembly.open && assembly.pending.length > 0) {
    assembly.open.text += assembly.pending.join('');
    assembly.pending = [];
  }
  return assembly.artifact;
}
