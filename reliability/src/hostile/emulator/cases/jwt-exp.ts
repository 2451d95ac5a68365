import { createHmac } from 'node:crypto';
import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, request } from '../harness.js';

const SECRET = 'hostile-jwt-secret-of-32-bytes!!';

/** An HS256 JWT with these claims (node:crypto: the signature is all there is to it). */
function hs256(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${unsigned}.${createHmac('sha256', SECRET).update(unsigned).digest('base64url')}`;
}

/** Item 18: a correctly signed token without `exp`, which would be good forever. */
export const jwtWithoutExp: HostileCase = {
  name: '18 JWT without exp',
  run: () =>
    againstEmulator({ jwtSecret: SECRET }, async (emu) => {
      const now = Math.floor(Date.now() / 1000);
      const status = async (token: string) =>
        (await request(emu, '/api/qna/v1/systems', { headers: { authorization: `Bearer ${token}` } })).status;
      const without = await status(hs256({ sub: 'attacker', iat: now }));
      const withExp = await status(hs256({ sub: 'user', iat: now, exp: now + 300 }));
      return {
        pass: without === 401 && withExp === 200,
        note: `without exp: ${without}; with exp: ${withExp}`,
      };
    }),
};
