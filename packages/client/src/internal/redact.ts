import { Redaction } from '@dataworkz/redaction';

// The client's use of the SDK's one redaction policy (@dataworkz/redaction): its debug log and the
// errors it raises. No name list or value form lives here.

/** Headers as a plain object for a log line, every secret-named one replaced. */
export function redactHeaders(headers: Headers, secrets: readonly string[] = []): Record<string, string> {
  const redaction = new Redaction(secrets);
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[redaction.headerName(name)] = redaction.header(name, value);
  });
  return out;
}

/** A URL for a log line: secret-named query parameters replaced, the client's secrets scrubbed from the rest. */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  return new Redaction(secrets).url(url);
}

/**
 * Headers with every secret removed from their values, and a header whose name holds one left out
 * (a name cannot hold `[redacted]`); the same object when none occurs.
 */
function scrubHeaders(headers: Headers, redaction: Redaction): Headers {
  let changed = false;
  const copy = new Headers();
  headers.forEach((value, name) => {
    if (redaction.headerName(name) !== name) {
      changed = true;
      return;
    }
    const scrubbed = redaction.header(name, value);
    if (scrubbed !== value) changed = true;
    copy.append(name, scrubbed);
  });
  return changed ? copy : headers;
}

/**
 * Any value with every secret removed: an error in place, text or parsed JSON as a scrubbed copy
 * (secret-named members redacted whole, the secrets replaced in every form).
 */
export function scrubAny<T>(value: T, secrets: readonly string[]): T {
  const redaction = new Redaction(secrets);
  if (value instanceof Error) {
    scrubError(value, redaction);
    return value;
  }
  return redaction.value(value);
}

/**
 * Removes secrets a server echoed from an error, in place: its message, stack and every own data
 * field (body, headers, failureReason, a JSON-RPC error's data, ...), and its cause, likewise.
 */
function scrubError(error: Error, redaction: Redaction): void {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    for (const key of Object.getOwnPropertyNames(current)) {
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      if (!descriptor || !('value' in descriptor) || descriptor.value === undefined) continue;
      const scrubbed =
        descriptor.value instanceof Headers
          ? scrubHeaders(descriptor.value, redaction)
          : redaction.value(descriptor.value);
      if (scrubbed !== descriptor.value) {
        Object.defineProperty(current, key, { ...descriptor, value: scrubbed, writable: true });
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
}
