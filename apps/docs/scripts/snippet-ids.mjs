// How a TypeScript block in a page is recognised and named: shared by the extraction
// (scripts/snippets.mjs) and the site's Run buttons (.vitepress/snippet-fences.ts).

/**
 * The flags of a fence whose language is TypeScript, or undefined for any other fence.
 * `run`: a Run button in the page (and run in CI); `no-run`: compiled only (it needs a deployment,
 * a server of your own or a long wait); otherwise compiled, then run in CI against the emulator.
 * @param {string} info
 * @returns {{ run: boolean, noRun: boolean } | undefined}
 */
export function snippetMeta(info) {
  const [lang = '', ...words] = info.trim().split(/\s+/);
  if (lang !== 'ts' && lang !== 'typescript') return undefined;
  return { run: words.includes('run'), noRun: words.includes('no-run') };
}

/**
 * A block's id: its page's path without `.md`, slashes as `--`, then its position among the page's
 * TypeScript blocks: `guides--qna--search-2`.
 * @param {string} page a page's path relative to the site's root, e.g. `guides/qna/search.md`
 * @param {number} index
 */
export function snippetId(page, index) {
  // A README outside the site (`../../packages/client/README.md`) drops its leading `../`.
  return `${page.replace(/^(\.\.\/)+/, '').replace(/\.md$/, '').replaceAll('/', '--')}-${index}`;
}
