// The HS256 secret bearer tokens are signed with. The only file that touches the `authSigningKeys`
// collection. SIM_JWT_SECRET wins; otherwise a secret is generated once and kept in the store, so tokens
// issued before a restart still verify after it (spec 5.2: clients hold tokens for up to an hour).
import type { KernelDeps } from '../../kernel/deps.js';
import { AUTH_HOOKS } from './auth.hooks.js';

interface SigningKeyRecord {
  id: string;
  rev?: number;
  secret: string;
  createdAt: string;
}

const RECORD_ID = 'jwt-hs256';

export function signingKeyStore(deps: KernelDeps) {
  const records = deps.store.collection<SigningKeyRecord>('authSigningKeys');
  const encoder = new TextEncoder();
  // The same bytes for the same secret: token verification keys its cache on this object (tokens.ts).
  let last: { secret: string; bytes: Uint8Array } | undefined;
  const encode = (secret: string) => (last?.secret === secret ? last.bytes : (last = { secret, bytes: encoder.encode(secret) }).bytes);
  // The secret actually used: the configured or stored one unless a deviation names another.
  const bytesOf = (secret: string) => encode(deps.defects.at(AUTH_HOOKS.signingSecret, secret));
  // Over a database shared by several instances (issue 17) every token verification would read the record:
  // a round trip per request for a secret that only a sandbox reset changes. Kept until forget() (the
  // control API's reset, here or, through the cluster sync, on another instance).
  let kept: string | undefined;
  const keep = deps.store.shared !== undefined;
  return {
    forget() {
      kept = undefined;
    },
    /** The signing key, created on first use (and again after a sandbox reset cleared the store). */
    async current(): Promise<Uint8Array> {
      if (deps.config.jwtSecret) return bytesOf(deps.config.jwtSecret);
      if (kept !== undefined) return bytesOf(kept);
      // create() loses to a concurrent creator (another instance): then the winner's secret is read.
      const record =
        (await records.get(RECORD_ID)) ??
        (await records.create({ id: RECORD_ID, secret: deps.ids.secret(32), createdAt: deps.clock.nowIso() })) ??
        (await records.get(RECORD_ID))!;
      if (keep) kept = record.secret;
      return bytesOf(record.secret);
    },
  };
}

export type SigningKeyStore = ReturnType<typeof signingKeyStore>;
