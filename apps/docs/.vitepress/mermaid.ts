import { existsSync } from 'node:fs';
import { cp, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import type { MarkdownRenderer, UserConfig } from 'vitepress';

type VitePlugin = NonNullable<NonNullable<UserConfig['vite']>['plugins']>[number];

/**
 * Mermaid diagrams, drawn in the reader's browser by mermaid's own prebuilt ES module build.
 * That build is copied into the site as it ships (`/mermaid/`) instead of being bundled: the site's
 * build no longer runs mermaid (megabytes of it) through Rollup, and a page loads it only when it
 * has a diagram (see theme/MermaidDiagram.vue).
 */
const entry = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.esm.min.mjs');
const mermaidDist = dirname(entry);
/** The files the entry imports, all under this folder of the package. */
const chunks = join('chunks', 'mermaid.esm.min');
/** Where the site serves it, below its base (theme/mermaid.ts imports it from there). */
const mermaidPath = 'mermaid';

/** A `mermaid` fence becomes a diagram the theme's component draws in the page. */
export function mermaidFences(md: MarkdownRenderer): void {
  const fence = md.renderer.rules.fence;
  if (fence === undefined) throw new Error('markdown-it has no fence renderer');
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (token?.info.trim() !== 'mermaid') return fence(tokens, idx, options, env, self);
    return `<MermaidDiagram graph="${encodeURIComponent(token.content)}" />`;
  };
}

/** After the build: mermaid's ES module build, without its source maps, into the site. */
export async function copyMermaid(outDir: string): Promise<void> {
  const target = join(outDir, mermaidPath);
  await cp(entry, join(target, 'mermaid.esm.min.mjs'));
  await cp(join(mermaidDist, chunks), join(target, chunks), {
    recursive: true,
    filter: (source) => !source.endsWith('.map'),
  });
}

/** In `vitepress dev`: the same files, served from the package. */
export function serveMermaid(base: string): VitePlugin {
  const prefix = `${base}${mermaidPath}/`;
  return {
    name: 'docs-mermaid-dist',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use(async (request, response, next) => {
        const path = request.url?.split('?')[0];
        if (path === undefined || !path.startsWith(prefix)) return next();
        const file = normalize(join(mermaidDist, path.slice(prefix.length)));
        if (!file.startsWith(mermaidDist) || !file.endsWith('.mjs') || !existsSync(file)) return next();
        response.setHeader('Content-Type', 'text/javascript');
        response.end(await readFile(file));
      });
    },
  };
}
