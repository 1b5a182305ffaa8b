// Sandbox-wide state that is not a tenant's: the virtual clock's offset, the admin token, the pinned
// integration key. The only file that touches the `sandbox` collection.
import { createHash } from 'node:crypto';
import type { KernelDeps } from '../kernel/deps.js';

interface SandboxRecord {
  id: 'state';
  clockOffsetMs: number;
  adminToken: string;
  /** sha256 of SIM_INTEGRATION_KEY and the key created for it, so a pinned key is created once. */
  pinnedKeyHash: string | null;
  pinnedKeyId: string | null;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function sandboxStore(deps: KernelDeps) {
  const records = deps.store.collection<SandboxRecord>('sandbox');
  const read = (): SandboxRecord =>
    records.get('state') ?? { id: 'state', clockOffsetMs: 0, adminToken: deps.config.adminToken ?? `sim_admin_${deps.ids.secret(24)}`, pinnedKeyHash: null, pinnedKeyId: null };
  const write = (change: Partial<SandboxRecord>) => records.put({ ...read(), ...change, id: 'state' });
  return {
    /** The admin token: SIM_ADMIN_TOKEN when set, else one generated once and kept. */
    adminToken(): string {
      const state = read();
      const token = deps.config.adminToken ?? state.adminToken;
      if (!records.get('state') || state.adminToken !== token) write({ adminToken: token });
      return token;
    },
    /** Puts the virtual clock where it was before a restart (time never runs backwards for tokens and jobs). */
    restoreClock(): void {
      const behind = read().clockOffsetMs - deps.clock.offsetMs();
      if (behind > 0) deps.clock.advance(behind);
    },
    advanceClock(ms: number): void {
      deps.clock.advance(ms);
      write({ clockOffsetMs: deps.clock.offsetMs() });
    },
    /** After a reset: keep the admin token and the clock, forget everything else. */
    reinstate(adminToken: string): void {
      records.put({ id: 'state', clockOffsetMs: deps.clock.offsetMs(), adminToken, pinnedKeyHash: null, pinnedKeyId: null });
    },
    pinnedKey: () => ({ hash: read().pinnedKeyHash, keyId: read().pinnedKeyId }),
    setPinnedKey: (hash: string, keyId: string) => write({ pinnedKeyHash: hash, pinnedKeyId: keyId }),
  };
}

export type SandboxStore = ReturnType<typeof sandboxStore>;
