import { defineConfig, type UserConfig } from 'vitepress';
import llms from 'vitepress-plugin-llms';
import { copyMermaid, mermaidFences, serveMermaid } from './mermaid.js';
import { sidebar } from './sidebar.js';
import { runnableSnippets } from './snippet-fences.js';

type VitePlugins = NonNullable<NonNullable<UserConfig['vite']>['plugins']>;

// DOCS_BASE: the path the site is served under (`/<repository>/` on GitHub Pages).
const base = process.env.DOCS_BASE ?? '/';

export default defineConfig({
  title: 'Dataworkz TypeScript SDK',
  description:
    'Typed TypeScript clients for the Dataworkz service: QnA systems (RAG search and answers) and agents over A2A, with a local emulator.',
  base,
  outDir: 'dist',
  cleanUrls: true,
  lastUpdated: false,
  srcExclude: ['**/README.md', 'node_modules/**', '.snippets/**', 'test/**'],
  head: [
    ['meta', { name: 'theme-color', content: '#3451b2' }],
    ['link', { rel: 'icon', type: 'image/svg+xml', href: `${base}favicon.svg` }],
  ],
  markdown: {
    config: (md) => {
      mermaidFences(md);
      runnableSnippets(md);
    },
  },
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Guides', link: '/guides/qna/search-and-answers' },
      { text: 'Reference', link: '/reference/' },
      { text: 'Explanation', link: '/explanation/architecture' },
    ],
    sidebar,
    search: { provider: 'local' },
    outline: [2, 3],
    footer: { message: 'MIT licensed.' },
  },
  vite: {
    // The plugin's types name the workspace's newer Vite; it runs on VitePress's own.
    plugins: [llms({ ignoreFiles: ['reference/api/**/*'] }) as unknown as VitePlugins, serveMermaid(base)],
    // The in-page emulator and clients come from the workspace as their dist; nothing to prebundle twice.
    optimizeDeps: { exclude: ['@dataworkz/emulator'] },
    // The snippet worker imports each snippet on demand: that needs chunks, so ES module workers.
    worker: { format: 'es' },
  },
  // Mermaid's own build beside the site, for the pages with a diagram (see mermaid.ts).
  buildEnd: ({ outDir }) => copyMermaid(outDir),
});
