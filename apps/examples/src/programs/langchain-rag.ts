// A QnA system in LangChain.js: its search as the retriever of an LCEL chain, its own answer with the
// passages it used, and an agent as a tool whose steps arrive as callback events.
import Dataworkz from '@dataworkz/client';
import {
  DataworkzAnswerRetriever,
  DataworkzRetriever,
  dataworkzAgentTool,
  splitAnswer,
  TASK_UPDATE_EVENT,
  type TaskUpdateEventData,
} from '@dataworkz/langchain';
import type { Document } from '@langchain/core/documents';
import type { ToolMessage } from '@langchain/core/messages';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda, RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { excerpt, field, heading, item } from '../support/output.js';
import { chooseAgentId, chooseSystemId } from '../support/target.js';

const dw = new Dataworkz();
const systemId = await chooseSystemId(dw);
const question = 'How much memory does the installer need?';

heading('A retrieval chain: retriever → prompt → chat model');
const retriever = new DataworkzRetriever({ client: dw, systemId, maxResults: 3 });
const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'Answer from these passages only, citing them as [n]:\n{context}'],
  ['human', '{question}'],
]);
const context = RunnableLambda.from((documents: Document[]) =>
  documents.map((document, index) => `[${index + 1}] ${document.pageContent}`).join('\n'),
);
// Any LangChain chat model goes here (ChatOpenAI, ChatAnthropic...); this one replies with a fixed text,
// so the example runs with no provider.
const model = new FakeListChatModel({ responses: ['(the chat model’s answer, written from [1]-[3])'] });
const chain = RunnableSequence.from([
  { context: retriever.pipe(context), question: new RunnablePassthrough() },
  prompt,
  model,
  new StringOutputParser(),
]);
field('answer', await chain.invoke(question));
for (const [index, document] of (await retriever.invoke(question)).entries()) {
  item(`[${index + 1}] ${document.metadata.source} score ${document.metadata.score?.toFixed(3) ?? '?'}`);
  item(`    ${excerpt(document.pageContent, 110)}`);
}

heading("The system's own answer, with the passages it used");
const answered = await new DataworkzAnswerRetriever({ client: dw, systemId }).invoke(question);
const { answer, contexts } = splitAnswer(answered);
if (!answer) throw new Error('The answer retriever returned no answer document.');
field('answer', excerpt(answer.pageContent, 300));
field('written by', answer.metadata.llmProviderId);
field('from', `${contexts.length} passages`);

heading('An agent as a tool, its steps as callback events');
const agent = dataworkzAgentTool(dw, { agentId: await chooseAgentId(dw) });
const events = agent.streamEvents(
  { id: 'call-1', name: agent.name, args: { text: 'Where is order 1001?' }, type: 'tool_call' },
  { version: 'v2' },
);
let reply: ToolMessage | undefined;
for await (const event of events) {
  if (event.event === 'on_custom_event' && event.name === TASK_UPDATE_EVENT) {
    const { step, update } = event.data as TaskUpdateEventData;
    field(`step ${step}`, update.message ?? update.type);
  } else if (event.event === 'on_tool_end') reply = event.data.output as ToolMessage;
}
if (!reply) throw new Error('The agent tool ended without output.');
field('answer', excerpt(String(reply.content), 300));
