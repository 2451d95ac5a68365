import { failSpan } from '@dataworkz/client/node-tracing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';

/** What a tool call brings that the span uses: its JSON-RPC id and `_meta` (which may carry `traceparent`). */
export interface ToolCallInfo {
  requestId: string | number;
  _meta?: Record<string, unknown> | undefined;
}

/**
 * Runs a tool call inside an `execute_tool <tool>` span (the GenAI convention), so the client's spans
 * nest under it; with no tracer provider registered it costs a non-recording span. A `traceparent` in
 * the request's `_meta` makes it a child of the MCP client's trace. The arguments are not recorded:
 * they hold questions and texts.
 */
export function inToolSpan(
  tool: string,
  call: ToolCallInfo,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const parent = call._meta ? propagation.extract(context.active(), call._meta) : context.active();
  return trace.getTracer('@dataworkz/mcp').startActiveSpan(
    `execute_tool ${tool}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': tool,
        'gen_ai.tool.call.id': String(call.requestId),
        'mcp.method.name': 'tools/call',
      },
    },
    parent,
    async (span) => {
      try {
        return await work();
      } catch (error) {
        failSpan(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
