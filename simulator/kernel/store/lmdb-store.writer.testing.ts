// A writer for lmdb-store.test.ts, run as its own process: writes records in concurrent groups as request
// handlers do, prints each id once `flush()` resolved for it (what the HTTP layer acknowledges), and goes on
// until the test SIGKILLs it.
//   node --import tsx lmdb-store.writer.testing.ts FILE RUN   (RUN names this run's ids)
import { openLmdbStore } from './lmdb-store.js';

const store = await openLmdbStore({ file: process.argv[2]! });
const run = process.argv[3]!;
const items = store.collection<{ id: string; rev?: number; n: number; tenantId: string }, 'tenantId' | 'n'>('items', {
  fields: { tenantId: (i) => i.tenantId, n: (i) => i.n },
  indexes: { byTenant: { keys: ['tenantId'], order: [['n', 'asc']] } },
});
let n = 0;
for (;;) {
  const ids = Array.from({ length: 20 }, () => `${run}-${String(n++).padStart(8, '0')}`);
  await Promise.all(ids.map((id, i) => items.put({ id, n: n - 20 + i, tenantId: 't1' })));
  await store.flush();
  process.stdout.write(ids.join('\n') + '\n');
}
