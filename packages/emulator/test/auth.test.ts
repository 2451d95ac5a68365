import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj } from './support/http.js';
import { componentValidator } from './support/spec.js';

const secret = 'a-test-secret-of-thirty-two-bytes!!';
let emu: Emulator;
let jwksEmu: Emulator;
let rsa: Awaited<ReturnType<typeof generateKeyPair>>;

beforeAll(async () => {
  rsa = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(rsa.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  [emu, jwksEmu] = await Promise.all([
    startEmulator({ apiKeys: ['key-one', 'key-two'], jwtSecret: secret }),
    startEmulator({ apiKeys: ['other'], jwks: { keys: [jwk] } }),
  ]);
});
afterAll(() => Promise.all([emu.close(), jwksEmu.close()]));

const hs256 = (claims: { exp?: number } = {}, key = secret) =>
  new SignJWT({ sub: 'user-1' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(claims.exp ?? '5m')
    .sign(new TextEncoder().encode(key));

const isError = componentValidator('Error');

async function refused(target: Emulator, authorization: string | undefined) {
  const res = await call(target, '/api/qna/v1/systems', {
    headers: authorization === undefined ? { authorization: '' } : { authorization },
  });
  expect(isError(res.json)).toBe(true);
  return res;
}

describe('authentication', () => {
  it('accepts every configured SSWS key', async () => {
    for (const key of ['key-one', 'key-two']) {
      expect(
        (await call(emu, '/api/qna/v1/systems', { headers: { authorization: `SSWS ${key}` } })).status,
      ).toBe(200);
    }
    expect(emu.apiKey).toBe('key-one');
  });

  it('answers 401 with the Error shape for a missing header', async () => {
    const res = await refused(emu, undefined);
    expect(res.status).toBe(401);
    expect(obj(res.json)).toMatchObject({
      status: 401,
      error: 'Unauthorized',
      message: 'Missing Authorization header',
      path: '/api/qna/v1/systems',
    });
    expect(res.headers.get('www-authenticate')).toBe('SSWS, Bearer');
  });

  it.each(['SSWS', 'key-one', 'SSWS key one', 'Basic a2V5', 'SSWS  '])(
    'answers 401 for the malformed header %j',
    async (header) => {
      expect((await refused(emu, header)).status).toBe(401);
    },
  );

  it('answers 401 for a wrong key, without echoing it', async () => {
    const res = await refused(emu, 'SSWS wrong-secret-key');
    expect(res.status).toBe(401);
    expect(obj(res.json).message).toBe('Invalid API key');
    expect(res.text).not.toContain('wrong-secret-key');
  });

  it('accepts a good HS256 JWT and refuses bad, expired and wrongly signed ones', async () => {
    expect(
      (await call(emu, '/api/qna/v1/systems', { headers: { authorization: `Bearer ${await hs256()}` } }))
        .status,
    ).toBe(200);
    const expired = await refused(emu, `Bearer ${await hs256({ exp: Math.floor(Date.now() / 1000) - 60 })}`);
    expect(obj(expired.json).message).toBe('Access token expired');
    const wrongKey = await refused(emu, `Bearer ${await hs256({}, 'another-secret-another-secret-xx')}`);
    expect(obj(wrongKey.json).message).toBe('Invalid access token');
    const garbage = await refused(emu, 'Bearer not.a.jwt');
    expect(garbage.status).toBe(401);
    expect(garbage.text).not.toContain('not.a.jwt');
  });

  it('refuses JWTs without exp by default, and accepts them when allowed', async () => {
    const noExp = await new SignJWT({ sub: 'user-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .sign(new TextEncoder().encode(secret));
    const refusedToken = await refused(emu, `Bearer ${noExp}`);
    expect(refusedToken.status).toBe(401);
    expect(obj(refusedToken.json).message).toBe('Access token has no expiry (exp)');
    const rsaNoExp = await new SignJWT({ sub: 'u' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(rsa.privateKey);
    expect((await refused(jwksEmu, `Bearer ${rsaNoExp}`)).status).toBe(401);
    const lenient = await startEmulator({ apiKeys: ['k'], jwtSecret: secret, allowJwtWithoutExp: true });
    try {
      const res = await call(lenient, '/api/qna/v1/systems', {
        headers: { authorization: `Bearer ${noExp}` },
      });
      expect(res.status).toBe(200);
    } finally {
      await lenient.close();
    }
  });

  it('verifies RS256 JWTs with a JWKS', async () => {
    const token = await new SignJWT({ sub: 'u' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setExpirationTime('5m')
      .sign(rsa.privateKey);
    expect(
      (await call(jwksEmu, '/api/agents/v1/', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect((await refused(jwksEmu, `Bearer ${await hs256()}`)).status).toBe(401);
  });

  it('refuses to start with a JWKS that is not a key set', async () => {
    for (const jwks of [{}, { keys: 'k1' }, { keys: [null] }]) {
      await expect(startEmulator({ apiKeys: ['k'], jwks: jwks as never })).rejects.toThrow(
        /Option jwks must be a JSON Web Key Set/,
      );
    }
  });

  it('refuses Bearer tokens when no secret or JWKS is configured', async () => {
    const plain = await startEmulator({ apiKeys: ['k'] });
    try {
      const res = await refused(plain, `Bearer ${await hs256()}`);
      expect(res.status).toBe(401);
    } finally {
      await plain.close();
    }
  });

  it('guards the agent cards, the stream and the control endpoints too', async () => {
    for (const [path, method] of [
      ['/api/agents/v1/a2a/x/.well-known/agent-card.json', 'GET'],
      ['/api/agents/v1/a2a/x/stream', 'POST'],
      ['/_emulator/requests', 'GET'],
      ['/_emulator/faults', 'DELETE'],
    ] as const) {
      const res = await call(emu, path, { method, headers: { authorization: 'SSWS nope' } });
      expect(res.status).toBe(401);
    }
  });

  it('generates a key when none is configured', async () => {
    const generated = await startEmulator();
    try {
      expect(generated.apiKey).toMatch(/^dwz_[\w-]{20,}$/);
      expect((await call(generated, '/api/agents/v1/')).status).toBe(200);
    } finally {
      await generated.close();
    }
  });

  it('keeps each verdict when the same keys come again, and past many distinct wrong keys', async () => {
    const status = async (key: string) =>
      (await call(emu, '/api/qna/v1/systems', { headers: { authorization: `SSWS ${key}` } })).status;
    for (let round = 0; round < 3; round++) {
      expect(await status('key-one')).toBe(200);
      expect(await status('key-one-but-longer')).toBe(401);
    }
    // More distinct wrong keys than the verdicts remembered: old ones are forgotten, never confused.
    for (let i = 0; i < 300; i++) expect(await status(`wrong-${i}`)).toBe(401);
    expect(await status('key-two')).toBe(200);
    expect(await status('wrong-0')).toBe(401);
    expect(await status('key-one')).toBe(200);
  });
});
