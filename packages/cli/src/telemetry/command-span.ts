import { failSpan } from '@dataworkz/client/node-tracing';
import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = () => trace.getTracer('@dataworkz/cli');

/**
 * Runs each command inside a root span named for it (`dataworkz qna answer`), so the client's spans
 * nest under it. Only the command's name is recorded: its arguments may be questions or secrets.
 */
export class CommandSpans {
  private open: Span | undefined;

  /** Runs `work` (resolving with nothing or an exit code) in the span of the command `path`. */
  async run(path: readonly string[], work: () => Promise<unknown>): Promise<unknown> {
    const name = path.join(' ');
    return tracer().startActiveSpan(
      name,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'process.executable.name': path[0] ?? 'dataworkz',
          'process.pid': process.pid,
          'dataworkz.command': path.slice(1).join(' '),
        },
      },
      async (span) => {
        this.open = span;
        try {
          const outcome = await work();
          const code = typeof outcome === 'number' ? outcome : 0;
          span.setAttribute('process.exit.code', code);
          if (code !== 0) span.setStatus({ code: SpanStatusCode.ERROR, message: `exit code ${code}` });
          return outcome;
        } catch (error) {
          failSpan(span, error);
          throw error;
        } finally {
          this.open = undefined;
          span.end();
        }
      },
    );
  }

  /** Ctrl-C stopped a command that does not handle it: its span ends as interrupted. */
  interrupt(exitCode: number): void {
    const span = this.open;
    if (span === undefined) return;
    this.open = undefined;
    span.setAttributes({ 'process.exit.code': exitCode, 'error.type': 'interrupted' });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'interrupted' });
    span.end();
  }
}
