import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestAuth, storeKinds, type TestAuth } from '../../test-support/backend/test-stores.js';
import { type CliLoginCodes, codeChallengeOf, createCliLoginCodes } from './cli-login-codes.js';

const stores = await storeKinds({ tests: 'the CLI log-in code tests' });
const REDIRECT = 'http://127.0.0.1:49152/callback';

describe.each(stores)('CLI log-in codes over %s', (kind) => {
  let store: TestAuth;
  let codes: CliLoginCodes;
  let clock: Date;
  let userId: string;

  beforeAll(async () => {
    store = await openTestAuth(kind);
    clock = new Date('2026-03-01T10:00:00Z');
    codes = createCliLoginCodes({ adapter: store.adapter, now: () => clock });
    const user = await store.adapter.create<{ id: string }>({
      model: 'user',
      data: {
        name: 'Ada',
        email: 'ada@example.com',
        emailVerified: false,
        createdAt: clock,
        updatedAt: clock,
      },
    });
    userId = user.id;
  });
  afterAll(async () => {
    await store?.cleanup();
  });

  function pkce() {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: codeChallengeOf(verifier) };
  }

  async function issue() {
    const { verifier, challenge } = pkce();
    const code = await codes.issue({ userId, redirectUri: REDIRECT, codeChallenge: challenge });
    return { code, verifier };
  }

  it('redeems a code once: the second try is refused', async () => {
    const { code, verifier } = await issue();
    expect(await codes.redeem({ code, codeVerifier: verifier, redirectUri: REDIRECT })).toEqual({
      success: true,
      userId,
    });
    expect(await codes.redeem({ code, codeVerifier: verifier, redirectUri: REDIRECT })).toEqual({
      success: false,
      error: expect.stringContaining('unknown or was already used'),
    });
  });

  it('refuses a code after its 5 minutes', async () => {
    const { code, verifier } = await issue();
    clock = new Date(clock.getTime() + 5 * 60_000);
    expect(await codes.redeem({ code, codeVerifier: verifier, redirectUri: REDIRECT })).toEqual({
      success: false,
      error: expect.stringContaining('expired (codes are valid 5 minutes)'),
    });
  });

  it('accepts a code just before it expires', async () => {
    const { code, verifier } = await issue();
    clock = new Date(clock.getTime() + 5 * 60_000 - 1);
    expect(await codes.redeem({ code, codeVerifier: verifier, redirectUri: REDIRECT })).toMatchObject({
      success: true,
    });
  });

  it.each([
    ['another verifier', { codeVerifier: randomBytes(32).toString('base64url') }, 'verifier does not match'],
    ['a malformed verifier', { codeVerifier: 'short' }, 'verifier does not match'],
    ['another redirect', { redirectUri: 'http://127.0.0.1:49153/callback' }, 'issued to another nao login'],
    ['an unknown code', { code: 'made-up' }, 'unknown or was already used'],
  ])('refuses %s, and the code is spent', async (_label, change, message) => {
    const { code, verifier } = await issue();
    const result = await codes.redeem({ code, codeVerifier: verifier, redirectUri: REDIRECT, ...change });
    expect(result).toEqual({ success: false, error: expect.stringContaining(message) });
    if (!('code' in change)) {
      expect(await codes.redeem({ code, codeVerifier: verifier, redirectUri: REDIRECT })).toMatchObject({
        success: false,
      });
    }
  });

  describe("the original nao's flow (no PKCE)", () => {
    const issueOriginal = () => codes.issue({ userId, redirectUri: REDIRECT, codeChallenge: null });

    it('redeems a code without a verifier once: the second try is refused', async () => {
      const code = await issueOriginal();
      expect(await codes.redeemWithoutVerifier({ code })).toEqual({ success: true, userId });
      expect(await codes.redeemWithoutVerifier({ code })).toEqual({
        success: false,
        error: expect.stringContaining('unknown or was already used'),
      });
    });

    it('refuses a code after its 5 minutes', async () => {
      const code = await issueOriginal();
      clock = new Date(clock.getTime() + 5 * 60_000);
      expect(await codes.redeemWithoutVerifier({ code })).toEqual({
        success: false,
        error: expect.stringContaining('expired'),
      });
    });

    it('never redeems a PKCE code without its verifier, and that try spends it', async () => {
      const { code, verifier } = await issue();
      expect(await codes.redeemWithoutVerifier({ code })).toEqual({
        success: false,
        error: expect.stringContaining('must send its code verifier'),
      });
      expect(await codes.redeem({ code, codeVerifier: verifier, redirectUri: REDIRECT })).toMatchObject({
        success: false,
      });
    });

    it('never redeems its code through the PKCE exchange, whatever verifier is sent', async () => {
      const code = await issueOriginal();
      const { verifier } = pkce();
      expect(await codes.redeem({ code, codeVerifier: verifier, redirectUri: REDIRECT })).toEqual({
        success: false,
        error: expect.stringContaining('verifier does not match'),
      });
    });
  });

  it('stores hashes, never the codes', async () => {
    const { code } = await issue();
    const rows = await store.adapter.findMany<Record<string, unknown>>({ model: 'cliCode' });
    expect(JSON.stringify(rows)).not.toContain(code);
  });
});
