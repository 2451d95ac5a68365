// @vitest-environment node
// The root export holds what users call. Every function, class and constant in the committed API
// report must be one a user reaches for: shown in the documentation site, an example, the browser
// example or the package's README. A helper only the other @dataworkz packages call belongs in
// `@dataworkz/client/internal`, which has no report and no semver promise.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as client from '@dataworkz/client';
import * as internal from '@dataworkz/client/internal';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;

/** The names an API report exports: `export function x`, `export class X`, `export { X }`... */
function reportedNames(report: string): string[] {
  const declared = [...report.matchAll(/^export (?:declare )?(?:abstract )?\w+ (\w+)/gm)];
  const listed = [...report.matchAll(/^export \{ (\w+) \}/gm)];
  return [...new Set([...declared, ...listed].map((match) => match[1] as string))];
}

/** The text of every file below `dir` whose name ends with one of `endings`, generated output aside. */
function textsBelow(dir: string, endings: string[]): string {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => endings.some((ending) => file.endsWith(ending)))
    .filter((file) => !/(^|\/)(node_modules|dist|reference\/api)\//.test(file))
    .map((file) => readFileSync(join(root, dir, file), 'utf8'))
    .join('\n');
}

/** Where users are shown the API: the guides, the examples, the browser example, the README. */
const userFacing = [
  textsBelow('apps/docs', ['.md']),
  textsBelow('apps/examples/src', ['.ts']),
  textsBelow('apps/browser/src', ['.ts']),
  readFileSync(join(root, 'packages/client/README.md'), 'utf8'),
].join('\n');

/** The names in `names` no user-facing text mentions as a whole word. */
const notShownToUsers = (names: readonly string[]) =>
  names.filter((name) => !new RegExp(`\\b${name}\\b`).test(userFacing));

describe("the client's public surface", () => {
  const report = readFileSync(join(root, 'packages/client/api/client.api.md'), 'utf8');

  // What users can import as a value (a class exported as a type only, `Qna`, is not one).
  const values = Object.keys(client).filter((name) => name !== 'default');

  it('lists in its API report only values users are shown', () => {
    expect(values.length).toBeGreaterThan(20);
    expect(values.filter((name) => !reportedNames(report).includes(name))).toEqual([]);
    expect(notShownToUsers(values), 'move these to @dataworkz/client/internal').toEqual([]);
  });

  it('keeps the helpers of the other packages in the internal subpath, out of the report', () => {
    const helpers = Object.keys(internal);
    expect(helpers.length).toBeGreaterThan(0);
    // The check above would catch each of them in the report: none is shown to users.
    expect(notShownToUsers(helpers)).toEqual(helpers);
    expect(reportedNames(report).filter((name) => helpers.includes(name))).toEqual([]);
  });
});
