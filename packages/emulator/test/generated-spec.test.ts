import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { openapi } from '../src/generated/openapi.js';

it('record mode checks against the spec as it is now (run `pnpm generate` after changing it)', () => {
  const specPath = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));
  expect(openapi).toEqual(parse(readFileSync(specPath, 'utf8')));
});
