// Sandbox-wide state that is not a tenant's data: the virtual clock's offset, each tenant clock's own
// offset, the admin token, the pinned integration key. The only file that touches the `sandbox` and
// `tenantClocks` collections.
import { createHash } from 'node:crypto';
import type { KernelDeps } from '../kernel/deps.js';
import { deleteIds } from '../kernel/store/delete-matching.js';

interface SandboxRecord {
  id: 'state';
  rev?: number;
  clockOffsetMs: number;
  adminToken: string;
  /** sha256 of SIM_INTEGRATION_KEY and the key created for it, so a pinned key is created once. */
  pinnedKeyHash: string | null;
  pinnedKeyId: string | null;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** How far one tenant's clock is ahead of the sandbox clock (spec-free: the sandbox's test clocks). */
interface TenantClockRecord {
  id: string;
  rev?: number;
  offsetMs: number;
}

export function sandboxStore(deps: KernelDeps) {
  const records = deps.store.collection<SandboxRecord>('sandbox');
  const tenantClocks = deps.store.collection<TenantClockRecord>('tenantClocks', { fields: {}, indexes: { all: { keys: [] } } });
  const fresh = (): SandboxRecord => ({
    id: 'state',
    clockOffsetMs: 0,
    adminToken: deps.config.adminToken ?? `sim_admin_${deps.ids.secret(24)}`,
    pinnedKeyHash: null,
    pinnedKeyId: null,
  });
  const read = async (): Promise<SandboxRecord> => (await records.get('state')) ?? fresh();
  const write = async (change: Partial<SandboxRecord>) => records.put({ ...(await read()), ...change, id: 'state' });
  return {
    /** The admin token: SIM_ADMIN_TOKEN when set, else one generated once and kept. */
    async adminToken(): Promise<string> {
      const stored = await records.get('state');
      const state = stored ?? fresh();
      const token = deps.config.adminToken ?? state.adminToken;
      if (!stored || state.adminToken !== token) await records.put({ ...state, adminToken: token });
      return token;
    },
    /** Puts the virtual clocks where they were before a restart (time never runs backwards for tokens and jobs). */
    async restoreClocks(): Promise<void> {
      const behind = (await read()).clockOffsetMs - deps.clock.offsetMs();
      if (behind > 0) deps.clock.advance(behind);
      const offsets: Record<string, number> = {};
      for (const record of (await tenantClocks.query({ where: {} })).items) offsets[record.id] = record.offsetMs;
      deps.clocks.restoreTenantOffsets(offsets);
    },
    /** Moves the sandbox clock (every tenant follows), or one tenant's clock only. */
    async advanceClock(ms: number, tenantId?: string): Promise<void> {
      if (tenantId === undefined) {
        deps.clock.advance(ms);
        await write({ clockOffsetMs: deps.clock.offsetMs() });
        return;
      }
      deps.clocks.of(tenantId).advance(ms);
      await tenantClocks.put({ id: tenantId, offsetMs: deps.clocks.tenantOffsets()[tenantId] ?? 0 });
    },
    /** After a reset: keep the admin token and the sandbox clock, forget everything else (tenant clocks too). */
    async reinstate(adminToken: string): Promise<void> {
      deps.clocks.resetTenants();
      await records.put({ id: 'state', clockOffsetMs: deps.clock.offsetMs(), adminToken, pinnedKeyHash: null, pinnedKeyId: null });
    },
    pinnedKey: async () => {
      const state = await read();
      return { hash: state.pinnedKeyHash, keyId: state.pinnedKeyId };
    },
    setPinnedKey: (hash: string, keyId: string) => write({ pinnedKeyHash: hash, pinnedKeyId: keyId }),
    /** DELETE /_sim/tenants/{tenantId}: the tenant's stored clock offset. */
    purgeTenantClock: (tenantId: string) => deleteIds(tenantClocks, [tenantId]),
  };
}

export type SandboxStore = ReturnType<typeof sandboxStore>;
