import { describe, expect, it } from 'vitest';
import { createDefects } from '../../kernel/defects.js';
import { ApiError } from '../../kernel/errors.js';
import { transition } from '../../kernel/machine.js';
import { DEFECT_CATALOGUE } from '../../control/defects.catalogue.js';
import { machineMatchesContract } from '../../testing/machine-contract.js';
import { checkMachineDeviations } from '../../testing/machine-deviations.js';
import { feedSessionMachine, type FeedSessionAction, type FeedSessionFacts } from './feed-session.machine.js';
import type { FeedSessionStatus } from './trade.types.js';

const CLEAN: FeedSessionFacts = { applyable: true, issueCount: 0, blockingIssueCount: 0 };
const BLOCKED: FeedSessionFacts = { applyable: false, issueCount: 2, blockingIssueCount: 1 };
/** Non-blocking issues only: not applyable, nothing blocking. */
const TO_ACKNOWLEDGE: FeedSessionFacts = { applyable: false, issueCount: 1, blockingIssueCount: 0 };
const ACTIONS = [...new Set(feedSessionMachine.transitions.map((t) => t.action))];

/** Every move the spec's table allows (spec 3.2), and what it leads to. */
const ALLOWED: Array<[FeedSessionStatus, FeedSessionAction, FeedSessionStatus]> = [
  ['UPLOADED', 'normalize', 'NORMALIZING'],
  ['NORMALIZING', 'resume', 'NORMALIZING'],
  ['NORMALIZING', 'finish_clean', 'READY'],
  ['NORMALIZING', 'finish_blocked', 'PREVIEW_BLOCKED'],
  ['NORMALIZING', 'fail', 'FAILED'],
  ['UPLOADED', 'fail', 'FAILED'],
  ['PREVIEW_BLOCKED', 'acknowledge_last', 'READY'],
  ['READY', 'apply', 'APPLIED'],
  ['PREVIEW_BLOCKED', 'apply', 'APPLIED'],
  ['READY', 'classify_preview', 'READY'],
];

describe('the trade feed session machine', () => {
  it('has the states and terminal states of the contract lifecycle feed-session', () => {
    expect(machineMatchesContract(feedSessionMachine, 'feed-session')).toContain('v1.3.0');
  });

  it.each(ALLOWED)('moves %s -%s-> %s', (from, action, to) => {
    expect(transition(feedSessionMachine, from, action, CLEAN)).toBe(to);
  });

  it('refuses every other move with 409 ACTION_NOT_ALLOWED naming the current state', () => {
    for (const from of feedSessionMachine.states) {
      for (const action of ACTIONS) {
        if (ALLOWED.some(([f, a]) => f === from && a === action)) continue;
        const refused = (() => {
          try {
            transition(feedSessionMachine, from, action, CLEAN);
          } catch (error) {
            return error as ApiError;
          }
        })();
        expect(refused, `${from} -${action}->`).toBeInstanceOf(ApiError);
        expect(refused).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: from, action } });
      }
    }
  });

  it('lets a PREVIEW_BLOCKED session apply only through the direct-apply shortcut (applyable, no issues)', () => {
    expect(() => transition(feedSessionMachine, 'PREVIEW_BLOCKED', 'apply', BLOCKED)).toThrow(/may apply directly only with applyable true and no issues/);
    expect(() => transition(feedSessionMachine, 'PREVIEW_BLOCKED', 'apply', { applyable: true, issueCount: 1, blockingIssueCount: 0 })).toThrow(ApiError);
    expect(transition(feedSessionMachine, 'PREVIEW_BLOCKED', 'apply', CLEAN)).toBe('APPLIED');
  });

  it('leaves nothing out of FAILED and APPLIED', () => {
    for (const state of feedSessionMachine.terminal) expect(feedSessionMachine.transitions.filter((t) => t.from.includes(state))).toEqual([]);
  });
});

describe('the trade feed session machine under its deviations', () => {
  it('answers what its table in force says, with each defect or variant that changes its rows on (the apply guard and the finish read the counts)', () => {
    const report = checkMachineDeviations(feedSessionMachine, ACTIONS, DEFECT_CATALOGUE, [CLEAN, BLOCKED, TO_ACKNOWLEDGE]);
    expect(report.entries.sort()).toEqual(['trade.blocking-issues-ready', 'trade.nonblocking-ready', 'trade.preview-not-ready']);
    expect(report.problems).toEqual([]);
  });

  it('finishes a normalization with blocking issues READY only under trade.blocking-issues-ready', () => {
    const switches = createDefects(['trade.blocking-issues-ready'], DEFECT_CATALOGUE);
    expect(transition(feedSessionMachine, 'NORMALIZING', 'finish_blocked', BLOCKED, {}, switches)).toBe('READY');
    expect(transition(feedSessionMachine, 'NORMALIZING', 'finish_blocked', TO_ACKNOWLEDGE, {}, switches)).toBe('PREVIEW_BLOCKED');
    expect(transition(feedSessionMachine, 'NORMALIZING', 'finish_blocked', BLOCKED)).toBe('PREVIEW_BLOCKED');
  });
});
