import { describe, expect, it } from 'vitest';
import * as everywhere from '../src/neutral/digests.js';
import * as onNode from '../src/node/digests.js';

// Seeded ids and key checks must not depend on the runtime: Node's hashes and @noble/hashes agree.
const texts = [
  '',
  'dataworkz-emulator:Product docs',
  'SSWS dwz_key',
  'naïve café ☕ 数据',
  'x'.repeat(10_000),
];

describe('the digests of #digests', () => {
  it.each(texts.map((t) => [t.slice(0, 30), t]))('agree on %j', (_, text) => {
    expect(onNode.sha1Hex(text)).toBe(everywhere.sha1Hex(text));
    expect([...onNode.sha256Bytes(text)]).toEqual([...everywhere.sha256Bytes(text)]);
  });

  it('give the known SHA-1 of a known text', () => {
    expect(onNode.sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });
});
