import { readFileSync } from 'node:fs';
import type { DefaultTheme } from 'vitepress';

/**
 * The TypeScript API's sidebar: each package, and in it its modules or the kinds of symbol it exports
 * (classes, functions, ...), each kind linking to its list on the package's page. Not every symbol:
 * VitePress writes the whole sidebar into every page of the site, and the ~360 symbols made each page
 * about 85 KB heavier (230 KB for a symbol's page) and the build a quarter slower.
 */
function apiSidebar(): DefaultTheme.SidebarItem[] {
  const file = new URL('../reference/api/typedoc-sidebar.json', import.meta.url);
  const packages = JSON.parse(readFileSync(file, 'utf8')) as TypedocEntry[];
  // Clean links, as every other page of the site has (typedoc-vitepress-theme writes `….md`).
  const clean = (link: string) => link.replace(/\.md$/, '');
  return packages.map((pkg) => {
    const page = clean(pkg.link ?? '/reference/api/');
    // A kind of symbol links to its list on the package's page. A module (a package with more than one
    // entry point) has a page of its own, named as it is imported: TypeDoc calls the main one `index`.
    const items = (pkg.items ?? []).map(({ text, link }) =>
      link === undefined
        ? { text, link: `${page}#${slug(text)}` }
        : { text: text === 'index' ? pkg.text : `${pkg.text}/${text}`, link: clean(link) },
    );
    return { text: pkg.text, link: page, collapsed: true, items };
  });
}

/** An entry of typedoc-vitepress-theme's sidebar file: a package, a module, a kind of symbol or a symbol. */
type TypedocEntry = { text: string; link?: string; items?: TypedocEntry[] };

/** The anchor VitePress gives a heading ("Type Aliases" → `type-aliases`). */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const guides: DefaultTheme.SidebarItem[] = [
  { text: 'Getting started', link: '/getting-started' },
  {
    text: 'QnA systems',
    items: [
      { text: 'Search and answers', link: '/guides/qna/search-and-answers' },
      { text: 'Filters', link: '/guides/qna/filters' },
      { text: 'Chat with history', link: '/guides/qna/chat' },
      { text: 'Documents', link: '/guides/qna/documents' },
      { text: 'Question history and quality scores', link: '/guides/qna/question-history' },
      { text: 'Evaluation', link: '/guides/qna/evaluation' },
      { text: 'Evaluate in CI', link: '/guides/qna/evaluate-in-ci' },
    ],
  },
  {
    text: 'Agents',
    items: [
      { text: 'List and ask', link: '/guides/agents/list-and-ask' },
      { text: 'Stream a run', link: '/guides/agents/streaming' },
      { text: 'Serve a run to a browser', link: '/guides/agents/server-sent-events' },
      { text: 'Task updates', link: '/guides/agents/task-updates' },
      { text: 'Questions the agent asks back', link: '/guides/agents/input-required' },
      { text: 'Resume after a dropped connection', link: '/guides/agents/resume' },
      { text: 'A2A v1.0', link: '/guides/agents/a2a-v1' },
      { text: 'Context values', link: '/guides/agents/context-values' },
    ],
  },
  {
    text: 'Working with the client',
    items: [
      { text: 'Authentication', link: '/guides/auth' },
      { text: 'Errors, retries, time-outs', link: '/guides/errors' },
      { text: 'Names and ids', link: '/guides/names' },
      { text: 'Observability', link: '/guides/observability' },
      { text: 'Runtimes', link: '/guides/runtimes' },
    ],
  },
  {
    text: 'Testing',
    items: [
      { text: 'The emulator', link: '/guides/testing/emulator' },
      { text: 'Tests with vitest and MSW', link: '/guides/testing/tests' },
      { text: 'Faults and rate limits', link: '/guides/testing/faults' },
      { text: 'An agent stream that fails', link: '/guides/testing/agent-failures' },
      { text: 'Your own documents', link: '/guides/testing/documents' },
      { text: 'The console', link: '/guides/testing/console' },
      { text: 'Record, replay and drift', link: '/guides/testing/record-replay' },
    ],
  },
  {
    text: 'Tools and integrations',
    items: [
      { text: 'The CLI', link: '/guides/cli' },
      { text: 'Batch runs', link: '/guides/cli-batch' },
      { text: 'The MCP server', link: '/guides/mcp' },
      { text: 'LangChain.js', link: '/guides/langchain' },
      { text: 'The AI SDK', link: '/guides/ai-sdk' },
    ],
  },
  { text: 'Versioning and releases', link: '/guides/versioning' },
];

const explanation: DefaultTheme.SidebarItem[] = [
  {
    text: 'Explanation',
    items: [
      { text: 'How the packages fit together', link: '/explanation/architecture' },
      { text: "An agent run's life", link: '/explanation/agent-run' },
      { text: 'What the emulator emulates', link: '/explanation/emulator' },
      { text: 'A2A SDK defects worked around', link: '/explanation/a2a-sdk-defects' },
      { text: 'A2A conformance', link: '/explanation/a2a-conformance' },
      { text: 'Benchmarks', link: '/explanation/benchmarks' },
    ],
  },
];

const reference: DefaultTheme.SidebarItem[] = [
  { text: 'Reference', link: '/reference/' },
  {
    text: 'HTTP API',
    items: [
      { text: 'Overview', link: '/reference/http/' },
      { text: 'Agents endpoints', link: '/reference/http/agents' },
      { text: 'QnA endpoints', link: '/reference/http/qna' },
      { text: 'Schemas', link: '/reference/http/schemas' },
    ],
  },
  { text: 'TypeScript API', link: '/reference/api/', items: apiSidebar() },
];

export const sidebar: DefaultTheme.Sidebar = {
  '/reference/': reference,
  '/explanation/': explanation,
  '/': [...guides, ...explanation],
};
