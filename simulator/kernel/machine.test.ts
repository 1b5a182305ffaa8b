// transition() on a small synthetic machine: the one place every lifecycle refuses a move, with the stable
// code ACTION_NOT_ALLOWED (409, spec 7) naming the current state and the action in its details.
import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { canTransition, defineMachine, transition } from './machine.js';

type Door = 'OPEN' | 'CLOSED' | 'LOCKED' | 'GONE';
type Act = 'close' | 'open' | 'lock' | 'unlock' | 'remove';
interface Ctx {
  hasKey: boolean;
  removeTo?: Door;
}

const door = defineMachine<Door, Act, Ctx>({
  name: 'door',
  states: ['OPEN', 'CLOSED', 'LOCKED', 'GONE'],
  terminal: ['GONE'],
  transitions: [
    { from: ['OPEN'], action: 'close', to: 'CLOSED' },
    { from: ['CLOSED'], action: 'open', to: 'OPEN' },
    { from: ['CLOSED'], action: 'lock', to: 'LOCKED', guard: (ctx) => (ctx.hasKey ? undefined : 'a key is needed to lock the door') },
    { from: ['LOCKED'], action: 'unlock', to: 'CLOSED' },
    { from: ['OPEN', 'CLOSED'], action: 'remove', to: (ctx, current) => ctx.removeTo ?? (current === 'OPEN' ? 'GONE' : 'OPEN') },
  ],
});

const withKey: Ctx = { hasKey: true };

/** The ApiError transition() throws, or a test failure when it returns. */
function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected transition() to refuse the move');
}

describe('transition', () => {
  it('returns the next state of an allowed move', () => {
    expect(transition(door, 'OPEN', 'close', withKey)).toBe('CLOSED');
    expect(transition(door, 'CLOSED', 'lock', withKey)).toBe('LOCKED');
  });

  it('refuses a move the table lacks with 409 ACTION_NOT_ALLOWED naming the current state and action', () => {
    const error = refusal(() => transition(door, 'LOCKED', 'open', withKey));
    expect(error.status).toBe(409);
    expect(error.code).toBe('ACTION_NOT_ALLOWED');
    expect(error.details).toEqual({ currentState: 'LOCKED', action: 'open' });
    expect(error.message).toBe('open is not allowed when the door is LOCKED');
  });

  it('refuses every move out of a terminal state the table gives no move from', () => {
    expect(refusal(() => transition(door, 'GONE', 'close', withKey)).details).toEqual({ currentState: 'GONE', action: 'close' });
  });

  it('refuses with 409 and the guard\'s reason when the guard says no', () => {
    const error = refusal(() => transition(door, 'CLOSED', 'lock', { hasKey: false }));
    expect(error.status).toBe(409);
    expect(error.code).toBe('ACTION_NOT_ALLOWED');
    expect(error.message).toBe('a key is needed to lock the door');
    expect(error.details).toEqual({ currentState: 'CLOSED', action: 'lock' });
  });

  it('gives a computed target the context and the current state', () => {
    expect(transition(door, 'OPEN', 'remove', withKey)).toBe('GONE');
    expect(transition(door, 'CLOSED', 'remove', withKey)).toBe('OPEN');
    expect(transition(door, 'CLOSED', 'remove', { hasKey: true, removeTo: 'LOCKED' })).toBe('LOCKED');
  });

  it('throws, not a 409, when a computed target is not a state of the machine (a bug of the table)', () => {
    const run = () => transition(door, 'OPEN', 'remove', { hasKey: true, removeTo: 'AJAR' as Door });
    expect(run).toThrow('door: remove from OPEN computed the unknown state AJAR');
    expect(run).not.toThrow(ApiError);
  });

  it('merges extra details into the refusal', () => {
    const missing = refusal(() => transition(door, 'LOCKED', 'open', withKey, { doorId: 'd1' }));
    expect(missing.details).toEqual({ currentState: 'LOCKED', action: 'open', doorId: 'd1' });
    const guarded = refusal(() => transition(door, 'CLOSED', 'lock', { hasKey: false }, { doorId: 'd1' }));
    expect(guarded.details).toEqual({ currentState: 'CLOSED', action: 'lock', doorId: 'd1' });
  });
});

describe('canTransition', () => {
  it('says whether the table has the move, without evaluating guards', () => {
    expect(canTransition(door, 'CLOSED', 'lock')).toBe(true);
    expect(canTransition(door, 'LOCKED', 'open')).toBe(false);
    expect(canTransition(door, 'GONE', 'remove')).toBe(false);
  });
});

describe('defineMachine', () => {
  it('refuses a transition from or to an unknown state and returns a table that names only known ones', () => {
    const define = (from: string, to: string) => () =>
      defineMachine<string, 'go'>({ name: 'bad', states: ['A', 'B'], terminal: ['B'], transitions: [{ from: [from], action: 'go', to }] });
    expect(define('A', 'C')).toThrow('bad: unknown state C in go');
    expect(define('Z', 'B')).toThrow('bad: unknown state Z in go');
    expect(define('A', 'B')()).toMatchObject({ name: 'bad', states: ['A', 'B'] });
  });
});
