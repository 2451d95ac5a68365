/** The trace exporters a program can set up from the standard OpenTelemetry variables. */
export type TracesExporter = 'otlp' | 'console';

/** What the environment asks for: the exporters (none: tracing stays off) and what to warn about. */
export interface TracesWanted {
  exporters: TracesExporter[];
  warnings: string[];
}

const known = new Set<string>(['otlp', 'console', 'none']);

/**
 * Reads the standard variables without loading any of the OpenTelemetry SDK, so a run that does not
 * trace pays nothing. `OTEL_SDK_DISABLED=true` wins; `OTEL_TRACES_EXPORTER` names the exporters
 * (`none` turns them off); unset, an OTLP endpoint variable alone means `otlp`. Nothing is exported
 * unless asked, unlike the SDK's own default of `otlp`: a command-line tool must not start sending.
 */
export function tracesWanted(env: Readonly<Record<string, string | undefined>>): TracesWanted {
  const warnings: string[] = [];
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { exporters: [], warnings };
  const names = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of names) {
    if (!known.has(name))
      warnings.push(`OTEL_TRACES_EXPORTER: "${name}" is not supported (otlp, console, none).`);
  }
  const endpoint =
    (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? '').trim() !== '' ||
    (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').trim() !== '';
  const exporters: TracesExporter[] =
    names.length === 0
      ? endpoint
        ? ['otlp']
        : []
      : names.includes('none')
        ? []
        : [...new Set(names.filter((name): name is TracesExporter => name === 'otlp' || name === 'console'))];
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? '').trim();
  if (exporters.includes('otlp') && protocol !== '' && protocol !== 'http/json') {
    warnings.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL: "${protocol}" is not supported; traces are sent as http/json.`,
    );
  }
  return { exporters, warnings };
}
