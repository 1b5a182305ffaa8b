// The one transition pipeline (kernel/move.ts): load -> transition by the table in force -> compare-and-set
// save, retried on a lost race, each committed move in the transition log, a refused move nowhere.
import { describe, expect, it } from 'vitest';
import { createTestDeps } from '../testing/kernel.js';
import { createDefects } from './defects.js';
import type { DeviationEntry } from './deviations.js';
import { ApiError, notFound } from './errors.js';
import { defineMachine, deviateMachine } from './machine.js';
import { move } from './move.js';
import type { StoredRecord } from './store/collection.js';
import { transitionLog } from './transition-log.js';

type Light = 'RED' | 'GREEN' | 'OFF';
type Switch = 'go' | 'stop' | 'off';
interface Lamp extends StoredRecord {
  tenantId: string;
  state: Light;
  changes: number;
}

const lamp = defineMachine<Light, Switch>({
  name: 'lamp',
  states: ['RED', 'GREEN', 'OFF'],
  terminal: ['OFF'],
  transitions: [
    { from: ['RED'], action: 'go', to: 'GREEN' },
    { from: ['GREEN'], action: 'stop', to: 'RED' },
    { from: ['RED', 'GREEN'], action: 'off', to: 'OFF' },
  ],
});

async function lamps() {
  const deps = await createTestDeps();
  const log = transitionLog(deps);
  // 'job' stands for any lifecycle name here: the log takes the contract's names.
  const collection = log.tracked(deps.store.collection<Lamp, 'tenantId'>('lamps', { fields: { tenantId: (l) => l.tenantId }, indexes: {} }), { machine: 'job', state: (l) => l.state, tenantId: (l) => l.tenantId });
  await collection.create({ id: 'l1', tenantId: 't1', state: 'RED', changes: 0 });
  const history = async () => (await log.list({ resourceId: 'l1', limit: 50 })).items.map((e) => [e.from, e.to]);
  return { collection, history };
}

const step = (collection: Awaited<ReturnType<typeof lamps>>['collection'], action: Switch, extra: Partial<Parameters<typeof move<Lamp, Light, Switch, undefined>>[0]> = {}) => ({
  machine: lamp,
  action,
  context: undefined,
  load: () => collection.get('l1'),
  missing: () => notFound('lamp'),
  state: (l: Lamp) => l.state,
  apply: (l: Lamp, to: Light) => ({ ...l, state: to, changes: l.changes + 1 }),
  save: (next: Lamp) => collection.update(next),
  ...extra,
});

describe('move()', () => {
  it('loads, moves by the table, saves with compare-and-set and logs the move once', async () => {
    const { collection, history } = await lamps();
    const moved = await move(step(collection, 'go'));
    expect([moved.from, moved.to, moved.record.state, moved.record.changes]).toEqual(['RED', 'GREEN', 'GREEN', 1]);
    expect(await history()).toEqual([[null, 'RED'], ['RED', 'GREEN']]);
  });

  it('refuses a move the table lacks with 409 ACTION_NOT_ALLOWED, saving and logging nothing', async () => {
    const { collection, history } = await lamps();
    const error = await move(step(collection, 'stop', { details: { lampId: 'l1' } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('ACTION_NOT_ALLOWED');
    expect((error as ApiError).details).toMatchObject({ currentState: 'RED', action: 'stop', lampId: 'l1' });
    expect((await collection.get('l1'))?.changes).toBe(0);
    expect(await history()).toEqual([[null, 'RED']]);
  });

  it('answers the missing error for a record that does not exist', async () => {
    const { collection } = await lamps();
    const error = await move(step(collection, 'go', { load: () => collection.get('nope') })).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('NOT_FOUND');
  });

  it('after a lost race reads again and decides on the state the winner left', async () => {
    const { collection, history } = await lamps();
    let raced = false;
    const moved = await move(
      step(collection, 'off', {
        // Another writer moves the lamp to GREEN between this load and this save: the first save loses.
        async save(next) {
          if (!raced) {
            raced = true;
            const current = (await collection.get('l1'))!;
            await collection.update({ ...current, state: 'GREEN', changes: current.changes + 1 });
          }
          return collection.update(next);
        },
      }),
    );
    expect([moved.from, moved.to, moved.record.changes]).toEqual(['GREEN', 'OFF', 2]);
    expect(await history()).toEqual([[null, 'RED'], ['RED', 'GREEN'], ['GREEN', 'OFF']]);
  });

  it('judges the retry on what it reads: a move the winner made impossible is refused', async () => {
    const { collection } = await lamps();
    let raced = false;
    const error = await move(
      step(collection, 'go', {
        async save(next) {
          if (!raced) {
            raced = true;
            const current = (await collection.get('l1'))!;
            await collection.update({ ...current, state: 'OFF' });
          }
          return collection.update(next);
        },
      }),
    ).catch((e: unknown) => e);
    expect((error as ApiError).details).toMatchObject({ currentState: 'OFF', action: 'go' });
  });

  it('gives up with 409 after losing every attempt', async () => {
    const { collection } = await lamps();
    let saves = 0;
    const error = await move(step(collection, 'go', { attempts: 3, save: async () => (saves++, null) })).catch((e: unknown) => e);
    expect(saves).toBe(3);
    expect((error as ApiError).code).toBe('ACTION_NOT_ALLOWED');
    expect((error as ApiError).message).toMatch(/kept changing/);
  });

  it('runs the precheck on each loaded record before the table is read', async () => {
    const { collection } = await lamps();
    const error = await move(step(collection, 'go', { precheck: (l) => { if (l.state === 'RED') throw notFound('green lamp'); } })).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('NOT_FOUND');
  });

  it('applies the rows of a deviation that is on, and only while it is on', async () => {
    const entries: DeviationEntry[] = [{ id: 'lamp.stop-from-red', kind: 'defect', area: 'jobs', description: 'stop from RED goes OFF', machine: [deviateMachine(lamp, { add: [{ from: ['RED'], action: 'stop', to: 'OFF' }] })] }];
    const { collection } = await lamps();
    const switches = createDefects([], entries);
    await expect(move(step(collection, 'stop', { switches }))).rejects.toThrow(/not allowed/);
    switches.set(['lamp.stop-from-red']);
    expect((await move(step(collection, 'stop', { switches }))).to).toBe('OFF');
  });
});
