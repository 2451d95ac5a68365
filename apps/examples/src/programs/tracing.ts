// Trace the SDK with OpenTelemetry: the clients emit spans through @opentelemetry/api only, so an
// application registers a tracer provider (here one keeping spans in memory; in production an OTLP
// exporter to Jaeger, Honeycomb or any backend), a context manager so spans nest under the caller's, and
// the W3C propagator so every request carries `traceparent`. Then it prints the span tree it recorded.
import { getAgentCard, streamAgent } from '@dataworkz/a2a';
import Dataworkz from '@dataworkz/client';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { field, heading } from '../support/output.js';
import { printSpanTree } from '../support/span-tree.js';
import { chooseAgentId, chooseSystemId, firstLlmId } from '../support/target.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(provider);
const tracer = trace.getTracer('dataworkz-examples');

const dw = new Dataworkz();

// The application's own span: the client's calls made inside it become its children.
await tracer.startActiveSpan('answer a support question', async (span) => {
  try {
    const systemId = await chooseSystemId(dw);
    const llmProviderId = firstLlmId(await dw.qna.llmProviders(systemId), 'this QnA system');
    const passages = await dw.qna.search(systemId, { query: 'installer memory' });
    const answer = await dw.qna.answer(systemId, {
      questionText: 'How much memory does the installer need?',
      llmProviderId,
    });
    field('passages found', passages.searchResultsList?.length ?? 0);
    field('answer status', answer.status ?? '?');
  } finally {
    span.end();
  }
});

await tracer.startActiveSpan('check an order with an agent', async (span) => {
  try {
    const agentId = await chooseAgentId(dw);
    // Read through @dataworkz/a2a, the card is remembered: the run's span then takes the agent's name.
    await getAgentCard(dw, agentId);
    const final = await streamAgent(dw, agentId, { text: 'Can I return order 1002?' }).finalAnswer();
    field('agent run', final.state);
  } finally {
    span.end();
  }
});

await provider.forceFlush();
heading(`The span tree (${exporter.getFinishedSpans().length} spans)`);
printSpanTree(exporter.getFinishedSpans());
await provider.shutdown();
