// A store holding N completed jobs of the default tenant, written through the real store the way a long-
// running sandbox writes them (every write acknowledged once flushed), and then, with --crash, a SIGKILL
// instead of a clean stop (on the journal store: no compaction, every record still in the journal), as
// after a crash. Run as its own process by the bench:
//
//   node --import tsx scripts/bench/fill-store.ts --file DIR/store.mdb --records 100000 [--crash]
//   ... --journal DIR/store.json     the same records in the journal store (SIM_STORE=journal:FILE)
//   ... --store-url postgres://...   the same records in a PostgreSQL store (SIM_STORE's form)
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createSimulator } from '../../simulator/app.js';
import { testConfig } from '../../simulator/config.js';
import { createClock } from '../../simulator/kernel/clock.js';
import { createDefects } from '../../simulator/kernel/defects.js';
import { randomIds } from '../../simulator/kernel/ids.js';
import { openLmdbStore } from '../../simulator/kernel/store/lmdb-store.js';
import { openPostgresStore } from '../../simulator/kernel/store/postgres-store.js';
import { openStore } from '../../simulator/kernel/store/store.js';
import { clockDeps } from '../../simulator/testing/kernel.js';

const { values } = parseArgs({ options: { file: { type: 'string' }, journal: { type: 'string' }, 'store-url': { type: 'string' }, records: { type: 'string', default: '100000' }, crash: { type: 'boolean', default: false }, key: { type: 'string' }, admin: { type: 'string' } } });
if (!values.file && !values['store-url'] && !values.journal) throw new Error('--file, --journal or --store-url is required');
const count = Number(values.records);
const config = testConfig({ dbPath: values.file ?? values.journal ?? null, embeddedStore: values.journal ? 'journal' : 'lmdb', storeUrl: values['store-url'] ?? null, integrationKey: values.key ?? null, adminToken: values.admin ?? 'bench-admin', jobStartDelayMs: 3_600_000 });
const log = pino({ level: 'silent' });
const store = values['store-url'] ? await openPostgresStore({ url: values['store-url'] }) : values.journal ? await openStore({ file: values.journal }) : await openLmdbStore({ file: values.file! });
const deps = { config, store, ...clockDeps(createClock(), log), ids: randomIds, log, defects: createDefects([], []) };
const sim = await createSimulator(deps);
const identity = await sim.start();
const template = await sim.domains.jobs.enqueue({ tenantId: identity.tenantId, keyId: null, type: 'sima_validation', family: 'sima' });
// Opened without a schema: the jobs domain already declared the collection's fields and indexes.
const jobs = deps.store.collection<typeof template>(sim.domains.jobs.collectionName);
const start = deps.clock.now() - count * 1000;
// Durable once flushed (store.ts: the HTTP layer flushes before answering); a batch shares one fsync, as
// concurrent requests share one (group commit).
const BATCH = 500;
let lastJobId = '';
for (let i = 0; i < count; i += BATCH) {
  await Promise.all(
    Array.from({ length: Math.min(BATCH, count - i) }, (_, j) => {
      const at = new Date(start + (i + j) * 1000).toISOString();
      lastJobId = randomIds.uuid();
      return jobs.put({ ...template, id: lastJobId, status: 'COMPLETED', progress: 100, seq: i + j + 2, createdAt: at, updatedAt: at, startedAt: at, finishedAt: at });
    }),
  );
  await deps.store.flush();
}
await jobs.delete(template.id);
await deps.store.flush();
process.stdout.write(JSON.stringify({ tenantId: identity.tenantId, records: count, lastJobId }) + '\n');
if (values.crash) process.kill(process.pid, 'SIGKILL');
await sim.stop(); // a clean stop (the journal store compacts into its snapshot)
