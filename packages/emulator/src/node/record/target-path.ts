/**
 * The request target a recorder forwards, or why it refuses it. Dot segments are removed as RFC 3986
 * §5.2.4 says (`%2e` is a dot), so the deployment gets the path its base URL's path is joined to, not
 * one a server resolves further up. A target is refused when any reading of it leaves the API's
 * paths: that of a lenient server or proxy in front of the deployment, which also decodes `%2f` and
 * `%5c` and takes `\` for `/`, included. `/api/../../tenant-b/admin` would otherwise reach
 * `/tenant-b/admin` beside the deployment's base path.
 */
export function forwardedTarget(target: string): { target: string } | { refused: string } {
  const at = target.indexOf('?');
  const path = at < 0 ? target : target.slice(0, at);
  const query = at < 0 ? '' : target.slice(at);
  const normalised = withoutDotSegments(path);
  const broad = withoutDotSegments(path.replace(/%2f|%5c|\\/gi, '/'));
  if (!normalised.startsWith('/api/') || !broad.startsWith('/api/')) {
    return {
      refused:
        'The request path leaves the API’s paths (its dot segments, `..`, resolve outside /api/): it is not forwarded',
    };
  }
  return { target: normalised === path ? target : `${normalised}${query}` };
}

/** A path with its `.` and `..` segments (`%2e` spelled or not) resolved. */
function withoutDotSegments(path: string): string {
  const input = path.split('/');
  const out: string[] = [];
  input.forEach((segment, i) => {
    const dots = segment.replace(/%2e/gi, '.');
    if (dots === '.' || dots === '..') {
      // The first segment is the empty one before the leading slash: `..` never climbs above it.
      if (dots === '..' && out.length > 1) out.pop();
      // A path ending in a dot segment names a folder: it keeps its trailing slash.
      if (i === input.length - 1) out.push('');
      return;
    }
    out.push(segment);
  });
  return out.join('/');
}
