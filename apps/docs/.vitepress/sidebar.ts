import { readFileSync } from 'node:fs';
import type { DefaultTheme } from 'vitepress';

/** The TypeScript API's sidebar, written by typedoc-vitepress-theme next to the pages it generates. */
function apiSidebar(): DefaultTheme.SidebarItem[] {
  const file = new URL('../reference/api/typedoc-sidebar.json', import.meta.url);
  const items = JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[];
  // Clean links, as every other page of the site has (the theme writes `….md`).
  const clean = (item: DefaultTheme.SidebarItem): DefaultTheme.SidebarItem => ({
    ...item,
    ...(item.link === undefined ? {} : { link: item.link.replace(/\.md$/, '') }),
    ...(item.items === undefined ? {} : { items: item.items.map(clean) }),
  });
  return items.map(clean);
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
    ],
  },
  {
    text: 'Agents',
    items: [
      { text: 'List and ask', link: '/guides/agents/list-and-ask' },
      { text: 'Stream a run', link: '/guides/agents/streaming' },
      { text: 'Task updates', link: '/guides/agents/task-updates' },
      { text: 'Questions back (input-required)', link: '/guides/agents/input-required' },
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
