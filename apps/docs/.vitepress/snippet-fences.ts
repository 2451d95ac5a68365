import type { MarkdownRenderer } from 'vitepress';
import { snippetId, snippetMeta } from '../scripts/snippet-ids.mjs';

/**
 * After each TypeScript block marked `run`, a Run button that executes it in the page. The block's
 * id comes from the same numbering `scripts/snippets.mjs` uses to extract it, so the button runs
 * exactly the code shown (compiled and run in CI from the same extraction).
 */
export function runnableSnippets(md: MarkdownRenderer): void {
  const fence = md.renderer.rules.fence;
  if (fence === undefined) throw new Error('markdown-it has no fence renderer');
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const html = fence(tokens, idx, options, env, self);
    const token = tokens[idx];
    if (token === undefined) return html;
    const meta = snippetMeta(token.info);
    if (meta === undefined || !meta.run) return html;
    const index = tokens
      .slice(0, idx)
      .filter((t) => t.type === 'fence' && snippetMeta(t.info) !== undefined).length;
    const page = (env as { relativePath?: string }).relativePath;
    if (page === undefined) throw new Error('A runnable snippet outside a page');
    return `${html}<RunSnippet id="${snippetId(page, index)}" />`;
  };
}
