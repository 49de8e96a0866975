import { createHash, randomBytes } from 'node:crypto';
import { type AuthAdapter, NAO_MODELS } from './auth.js';

/** How long an invite can be used to sign up. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface Invites {
  /** A one-time sign-up code from the owner, stored as a hash. */
  issue(createdBy: string): Promise<{ code: string; expiresAt: Date }>;
  /** Whether the code is known and not expired; nothing is used up. */
  valid(code: string): Promise<boolean>;
  /** Uses the code up (after the account it let in was created). */
  consume(code: string): Promise<void>;
}

/**
 * Invites to sign up: once the owner's account exists, others need one (or the server runs
 * with NAO_ALLOW_SIGNUP=1), so a backend reachable on a network is not open to anyone.
 */
export function createInvites(options: { adapter: AuthAdapter; now?: () => Date; ttlMs?: number }): Invites {
  const { adapter } = options;
  const now = options.now ?? (() => new Date());
  const ttlMs = options.ttlMs ?? INVITE_TTL_MS;
  const model = NAO_MODELS.invite;
  return {
    async issue(createdBy) {
      const at = now();
      await adapter.deleteMany({ model, where: [{ field: 'expiresAt', operator: 'lt', value: at }] });
      const code = randomBytes(24).toString('base64url');
      const expiresAt = new Date(at.getTime() + ttlMs);
      await adapter.create({ model, data: { codeHash: hashOf(code), createdBy, expiresAt, createdAt: at } });
      return { code, expiresAt };
    },
    async valid(code) {
      const stored = await adapter.findOne<{ expiresAt: Date | string }>({
        model,
        where: [{ field: 'codeHash', value: hashOf(code) }],
      });
      return stored !== null && new Date(stored.expiresAt).getTime() > now().getTime();
    },
    async consume(code) {
      await adapter.deleteMany({ model, where: [{ field: 'codeHash', value: hashOf(code) }] });
    },
  };
}

function hashOf(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}
