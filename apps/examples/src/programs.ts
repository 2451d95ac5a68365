// The example programs in the order a newcomer meets the API: agents first, then QnA systems, then errors.
export interface ExampleProgram {
  file: string;
  title: string;
}

export const programs: ExampleProgram[] = [
  { file: 'list-agents.ts', title: 'List agents and their LLMs' },
  { file: 'agent-card.ts', title: "Fetch an agent's A2A card" },
  { file: 'ask-agent.ts', title: 'Ask an agent with the deprecated response call' },
  { file: 'stream-agent.ts', title: "Stream an agent's answer with live task updates" },
  { file: 'sse-node-http.ts', title: "Serve an agent run as Server-Sent Events from Node's http" },
  { file: 'sse-express.ts', title: 'Serve an agent run as Server-Sent Events from an Express route' },
  {
    file: 'sse-hono.ts',
    title: 'Serve an agent run as Server-Sent Events from a web-standard handler (Hono)',
  },
  { file: 'ai-sdk-chat.ts', title: 'Stream an agent into the AI SDK chat client through a route handler' },
  { file: 'context-values.ts', title: 'Pass context values through the provided-values extension' },
  { file: 'qna-systems.ts', title: 'List QnA systems and their details' },
  { file: 'filters.ts', title: "List a system's filters and use their values" },
  { file: 'search.ts', title: 'Search with a filter from the builder and properties' },
  { file: 'answer.ts', title: 'Answer a question with its cited contexts' },
  { file: 'chat.ts', title: 'Chat over a QnA system: follow-ups answered from the conversation' },
  { file: 'question-history.ts', title: 'Read the question history and a question with its scores' },
  { file: 'document.ts', title: 'Download a document' },
  { file: 'evaluate-systems.ts', title: 'Evaluate two QnA systems on a golden set and compare their scores' },
  { file: 'errors-and-retries.ts', title: 'Handle errors (a bad key, a FAILED query) and retries' },
  {
    file: 'tracing.ts',
    title: 'Trace client calls and an agent run with OpenTelemetry, and print the span tree',
  },
  { file: 'langchain-rag.ts', title: 'Use a QnA system and an agent in LangChain.js chains' },
  { file: 'in-process.ts', title: 'Run the emulator in process, with no server' },
];
