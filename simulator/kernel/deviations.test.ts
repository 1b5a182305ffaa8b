// Deviations as data (kernel/deviations.ts): machine rows applied by transition() through tableOf, rules at
// hook points applied by Defects.at; each marks the request only when it changed what was decided.
import { describe, expect, it } from 'vitest';
import { createDefects, inRequestScope } from './defects.js';
import { at, hookPoint, type DeviationEntry } from './deviations.js';
import { canTransition, defineMachine, deviateMachine, tableOf, transition } from './machine.js';

type S = 'A' | 'B' | 'C';
type Act = 'next' | 'back' | 'jump';
const abc = defineMachine<S, Act, { far: boolean }>({
  name: 'abc',
  states: ['A', 'B', 'C'],
  terminal: ['C'],
  transitions: [
    { from: ['A'], action: 'next', to: 'B' },
    { from: ['B'], action: 'next', to: 'C' },
    { from: ['B', 'C'], action: 'back', to: 'A' },
  ],
});

const limit = hookPoint<number, { page: number }>('response', 'test.limit');
const entries: DeviationEntry[] = [
  { id: 'abc.jump', kind: 'defect', area: 'jobs', description: 'jump from A', machine: [deviateMachine(abc, { add: [{ from: ['A'], action: 'jump', to: (ctx) => (ctx.far ? 'C' : 'B') }] })] },
  { id: 'abc.no-back-from-c', kind: 'variant', area: 'jobs', description: 'C is final', spec: 'test', machine: [deviateMachine(abc, { remove: [{ from: ['C'], action: 'back' }] })] },
  { id: 'abc.next-skips', kind: 'defect', area: 'jobs', description: 'next from A reaches C', machine: [deviateMachine(abc, { add: [{ from: ['A'], action: 'next', to: 'C' }] })] },
  { id: 'limit.doubled', kind: 'variant', area: 'pagination', description: 'twice the limit', spec: 'test', hooks: [at(limit, (n) => n * 2)] },
  { id: 'limit.first-page-one', kind: 'defect', area: 'pagination', description: 'first page of one', hooks: [at(limit, (n, ctx) => (ctx.page === 0 ? 1 : n))] },
];

describe('machine rows of a deviation', () => {
  it('add moves before the table\'s own, and take moves out, only while the entry is on', () => {
    const switches = createDefects([], entries);
    expect(tableOf(abc, switches)).toHaveLength(3);
    expect(canTransition(abc, 'A', 'jump', switches)).toBe(false);
    switches.set(['abc.jump', 'abc.no-back-from-c']);
    expect(transition(abc, 'A', 'jump', { far: true }, {}, switches)).toBe('C');
    expect(transition(abc, 'B', 'back', { far: false }, {}, switches)).toBe('A');
    expect(() => transition(abc, 'C', 'back', { far: false }, {}, switches)).toThrow(/not allowed/);
    switches.set(['abc.next-skips']);
    expect(transition(abc, 'A', 'next', { far: false }, {}, switches)).toBe('C');
    expect(transition(abc, 'B', 'next', { far: false }, {}, switches)).toBe('C');
  });

  it('refuses a row whose states the machine does not have', () => {
    expect(() => deviateMachine(abc, { add: [{ from: ['A'], action: 'next', to: 'Z' as S }] })).toThrow(/unknown state Z/);
  });

  it('marks the request only when a deviation decided the move differently', () => {
    const switches = createDefects(['abc.next-skips', 'abc.no-back-from-c'], entries);
    const marked: string[] = [];
    inRequestScope([], marked, () => transition(abc, 'B', 'back', { far: false }, {}, switches));
    expect(marked).toEqual([]);
    inRequestScope([], marked, () => expect(() => transition(abc, 'C', 'back', { far: false }, {}, switches)).toThrow());
    inRequestScope([], marked, () => transition(abc, 'A', 'next', { far: false }, {}, switches));
    expect(marked).toEqual(['abc.no-back-from-c', 'abc.next-skips']);
  });
});

describe('rules at a hook point', () => {
  it('pass the value through every entry on there, in catalogue order, with the context', () => {
    const switches = createDefects([], entries);
    expect(switches.at(limit, 50, { page: 0 })).toBe(50);
    switches.set(['limit.doubled']);
    expect(switches.at(limit, 50, { page: 0 })).toBe(100);
    switches.set(['limit.doubled', 'limit.first-page-one']);
    expect(switches.at(limit, 50, { page: 0 })).toBe(1);
    expect(switches.at(limit, 50, { page: 2 })).toBe(100);
  });

  it('mark an entry only when its rule changed the value', () => {
    const switches = createDefects(['limit.first-page-one'], entries);
    const marked: string[] = [];
    inRequestScope([], marked, () => switches.at(limit, 50, { page: 3 }));
    expect(marked).toEqual([]);
    inRequestScope([], marked, () => switches.at(limit, 50, { page: 0 }));
    expect(marked).toEqual(['limit.first-page-one']);
  });

  it('apply an entry switched on for one request by its header, and not outside it', () => {
    const switches = createDefects([], entries);
    expect(inRequestScope(['limit.doubled'], [], () => switches.at(limit, 10, { page: 1 }))).toBe(20);
    expect(switches.at(limit, 10, { page: 1 })).toBe(10);
  });
});
