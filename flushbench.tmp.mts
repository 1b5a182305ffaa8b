import { openLmdbStore } from './simulator/kernel/store/lmdb-store.ts';
import { openStore } from './simulator/kernel/store/store.ts';
import { rmSync, mkdirSync } from 'node:fs';
const kind = process.argv[2];
const conc = Number(process.argv[3] ?? 32);
rmSync('/tmp/fb', { recursive: true, force: true }); mkdirSync('/tmp/fb');
const store = kind === 'lmdb' ? await openLmdbStore({ file: '/tmp/fb/s.mdb' }) : await openStore({ file: '/tmp/fb/s.json' });
const fields: Record<string, (r: any) => any> = {};
const indexes: Record<string, any> = {};
for (let i = 0; i < 8; i++) { fields[`f${i}`] = (r: any) => r[`f${i}`]; indexes[`i${i}`] = { keys: ['t'], order: [[`f${i}`, 'desc']] }; }
fields.t = (r: any) => r.t;
const c = store.collection<any, any>('jobs', { fields, indexes });
let n = 0; const end = performance.now() + 4000; let id = 0;
await Promise.all(Array.from({ length: conc }, async () => {
  while (performance.now() < end) {
    const r: any = { id: `j${id++}`, t: 't1', payload: 'x'.repeat(600) };
    for (let i = 0; i < 8; i++) r[`f${i}`] = `2026-11-28T10:${String(id % 60).padStart(2, '0')}:00.000Z-${i}`;
    await c.put(r);
    await store.flush();
    n++;
  }
}));
console.log(kind, conc, 'writes/s', (n / 4).toFixed(0), 'journalWrites', store.stats.journalWrites);
await store.close();
