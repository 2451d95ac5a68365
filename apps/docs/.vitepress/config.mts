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
    // A concept's guide before the reference entries that share its words ("retry" → the errors guide,
    // not `retryAfterMs()`): a section's title weighs more than its text, and each page kind has a
    // weight of its own. The function is sent to the page as its source text, so it names no variable
    // from here.
    search: {
      provider: 'local',
      options: {
        miniSearch: {
          searchOptions: {
            boost: { title: 8, titles: 2, text: 2 },
            // Getting started, then the guides (a page's opening section most), then the explanations;
            // the reference's many small sections last.
            boostDocument: (id: string, _term: string, stored?: Record<string, unknown>) => {
              if (id.includes('/reference/')) return 0.1;
              if (id.includes('/explanation/')) return 0.5;
              const kind = id.includes('/getting-started') ? 2 : id.includes('/guides/') ? 1.5 : 1;
              return (stored?.titles as unknown[] | undefined)?.length === 0 ? kind * 2 : kind;
            },
          },
        },
      },
    },
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
