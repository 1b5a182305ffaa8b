// Trade feed sessions (`feedSessions`): the only file that touches the collection. One record per session,
// read by id within its tenant (another tenant's session is absent: 404) and changed by compare-and-set.
import type { KernelDeps } from '../../kernel/deps.js';
import { allMatching, deleteMatching } from '../../kernel/store/delete-matching.js';
import { transitionLog } from '../../kernel/transition-log.js';
import { TRADE_HOOKS } from './trade.hooks.js';
import type { FeedSessionRecord } from './trade.types.js';

export function feedSessionStore(deps: KernelDeps) {
  const sessions = transitionLog(deps).tracked(
    deps.store.collection<FeedSessionRecord, 'tenantId' | 'createdAt'>('feedSessions', {
      fields: { tenantId: (s) => s.tenantId, createdAt: (s) => s.createdAt },
      indexes: { byTenant: { keys: ['tenantId'], order: [['createdAt', 'asc']] } },
    }),
    { machine: 'feed-session', state: (s) => s.status, tenantId: (s) => s.tenantId },
  );
  return {
    create: (record: FeedSessionRecord) => sessions.create(record),
    /** Compare-and-set on `rev`: null when another writer won (kernel/move.ts saves a move with it). */
    update: (record: FeedSessionRecord) => sessions.update(record),
    /** The session, when it is the tenant's (the point sessionReadTenantScoped decides about another tenant's). */
    async get(tenantId: string, sessionId: string): Promise<FeedSessionRecord | undefined> {
      const session = await sessions.get(sessionId);
      return session?.tenantId === tenantId || (session && !deps.defects.at(TRADE_HOOKS.sessionReadTenantScoped, true)) ? session : undefined;
    },
    /**
     * Read, change, compare-and-set, retry on a lost race (`change` decides again on what it reads; it may
     * throw to refuse). Resolves to the stored session, or undefined when it is absent.
     */
    modify: (sessionId: string, change: (current: FeedSessionRecord) => FeedSessionRecord | undefined) => sessions.modify(sessionId, change),
    delete: (sessionId: string) => sessions.delete(sessionId),
    /** Every session of the tenant (its index, in pages): DELETE /_sim/tenants/{tenantId} removes their rows first. */
    ofTenant: (tenantId: string) => allMatching(sessions, { tenantId }),
    /** DELETE /_sim/tenants/{tenantId} (the domain's manifest): the tenant's records, by its index. */
    purgeTenant: (tenantId: string) => deleteMatching(sessions, { tenantId }),
  };
}

export type FeedSessionStore = ReturnType<typeof feedSessionStore>;
