import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type AuthAdapter, NAO_MODELS } from './auth.js';

/** How long a code from the approval page can be exchanged for a session. */
export const CLI_CODE_TTL_MS = 5 * 60 * 1000;

/** RFC 7636: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** base64url of a SHA-256 digest. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isCodeChallenge(value: string): boolean {
  return CHALLENGE.test(value);
}

/** The S256 challenge of a verifier (what `nao login` puts in the approval URL). */
export function codeChallengeOf(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/**
 * What a code of the original nao's flow stores as its challenge. That flow has no PKCE; `:`
 * never occurs in a base64url digest, so no verifier can redeem such a code through ours.
 */
const NO_CHALLENGE = 'none:original-nao-cli-login';

export type RedeemResult = { success: true; userId: string } | { success: false; error: string };

export interface CliLoginCodes {
  /**
   * A one-time code for the approved user, bound to the CLI's redirect URI and PKCE challenge;
   * `codeChallenge: null` for the original nao's flow (`/cli-login?port&state`), which has none.
   */
  issue(options: { userId: string; redirectUri: string; codeChallenge: string | null }): Promise<string>;
  /** Consumes the code (whatever the outcome, it cannot be tried twice). */
  redeem(options: { code: string; codeVerifier: string; redirectUri: string }): Promise<RedeemResult>;
  /**
   * The original nao's exchange (`POST /api/cli-auth/token {code}`): consumes the code, and
   * succeeds only for a code issued without a challenge, so a code of our PKCE flow caught on
   * its way to the CLI cannot be redeemed here without its verifier.
   */
  redeemWithoutVerifier(options: { code: string }): Promise<RedeemResult>;
}

interface StoredCode {
  userId: string;
  redirectUri: string;
  codeChallenge: string;
  expiresAt: Date | string;
}

/**
 * The codes of the CLI log-in: valid `ttlMs` (5 minutes), usable once, stored as hashes. A
 * code of our flow is only redeemable by the process that holds the PKCE verifier of the
 * approval it started; one of the original nao's flow only by whoever received it at the
 * loopback callback it was sent to (that flow has nothing more to check).
 */
export function createCliLoginCodes(options: {
  adapter: AuthAdapter;
  now?: () => Date;
  ttlMs?: number;
}): CliLoginCodes {
  const { adapter } = options;
  const now = options.now ?? (() => new Date());
  const ttlMs = options.ttlMs ?? CLI_CODE_TTL_MS;
  const model = NAO_MODELS.cliCode;

  return {
    async issue({ userId, redirectUri, codeChallenge }) {
      const at = now();
      await adapter.deleteMany({ model, where: [{ field: 'expiresAt', operator: 'lt', value: at }] });
      const code = randomBytes(32).toString('base64url');
      await adapter.create({
        model,
        data: {
          codeHash: hashOf(code),
          userId,
          redirectUri,
          codeChallenge: codeChallenge ?? NO_CHALLENGE,
          expiresAt: new Date(at.getTime() + ttlMs),
          createdAt: at,
        },
      });
      return code;
    },

    async redeem({ code, codeVerifier, redirectUri }) {
      const stored = await consume(code);
      if (!stored.success) return stored;
      if (stored.code.redirectUri !== redirectUri)
        return refused('This log-in code was issued to another nao login.');
      if (
        !VERIFIER.test(codeVerifier) ||
        !sameText(codeChallengeOf(codeVerifier), stored.code.codeChallenge)
      ) {
        return refused('The code verifier does not match the approved log-in.');
      }
      return { success: true, userId: stored.code.userId };
    },

    async redeemWithoutVerifier({ code }) {
      const stored = await consume(code);
      if (!stored.success) return stored;
      if (stored.code.codeChallenge !== NO_CHALLENGE)
        return refused('This log-in code belongs to a log-in that must send its code verifier.');
      return { success: true, userId: stored.code.userId };
    },
  };

  /** Takes the code out of the store (used or not, it is gone) and checks that it is still valid. */
  async function consume(
    code: string,
  ): Promise<{ success: true; code: StoredCode } | { success: false; error: string }> {
    const stored = await adapter.consumeOne<StoredCode>({
      model,
      where: [{ field: 'codeHash', value: hashOf(code) }],
    });
    if (stored === null)
      return refused('This log-in code is unknown or was already used. Run `nao login` again.');
    if (new Date(stored.expiresAt).getTime() <= now().getTime()) {
      return refused(
        `This log-in code has expired (codes are valid ${Math.round(ttlMs / 60_000)} minutes). Run \`nao login\` again.`,
      );
    }
    return { success: true, code: stored };
  }
}

function refused(error: string): { success: false; error: string } {
  return { success: false, error };
}

function hashOf(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
