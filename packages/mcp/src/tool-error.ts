import type { Dataworkz } from '@dataworkz/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { inToolSpan, type ToolCallInfo } from './telemetry/tool-span.js';

/**
 * A failure as an MCP tool error the assistant can read and act on: the error's kind, the HTTP
 * status and the service's `failureReason` when there are ones. Passed through the client's `redact`,
 * so no credential the client holds can appear in it, whatever the service echoed.
 */
function toolError(dw: Dataworkz, error: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: dw.redact(describe(error)) }] };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return `Error: ${String(error)}`;
  const status = (error as { status?: unknown }).status;
  const failureReason = (error as { failureReason?: unknown }).failureReason;
  let text = `${error.name}`;
  if (typeof status === 'number') text += ` (HTTP ${status})`;
  text += `: ${error.message}`;
  if (typeof failureReason === 'string' && !error.message.includes(failureReason)) {
    text += ` failureReason: ${failureReason}`;
  }
  return text;
}

/** Runs a tool's work in its `execute_tool` span, turning any failure into a tool error. */
export function asTool(
  dw: Dataworkz,
  tool: string,
  call: ToolCallInfo,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  return inToolSpan(tool, call, work).catch((error: unknown) => toolError(dw, error));
}

/** A successful result: the structured content, and the same as JSON text for clients that read only text. */
export function structured<T extends { [key: string]: unknown }>(
  value: T,
  extra: CallToolResult['content'] = [],
): CallToolResult {
  return {
    structuredContent: value,
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }, ...extra],
  };
}
