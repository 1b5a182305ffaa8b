// The delivery machine under the deviations of the catalogue: only webhooks.fifth-attempt changes its rows
// (the other webhooks defects act at hook points, webhooks.hooks.ts), and its table answers what its rows say.
import { describe, expect, it } from 'vitest';
import { DEFECT_CATALOGUE } from '../../control/defects.catalogue.js';
import { createDefects } from '../../kernel/defects.js';
import { transition } from '../../kernel/machine.js';
import { checkMachineDeviations } from '../../testing/machine-deviations.js';
import { deliveryMachine, MAX_ATTEMPTS, type DeliveryAction } from './delivery.machine.js';

const DELIVERY_ACTIONS: readonly DeliveryAction[] = ['succeed', 'retry', 'give_up'];

describe('the delivery machine under its deviations', () => {
  it('answers what its table says, and only webhooks.fifth-attempt changes its rows', () => {
    const report = checkMachineDeviations(deliveryMachine, DELIVERY_ACTIONS, DEFECT_CATALOGUE, [{ attempt: 1 }, { attempt: MAX_ATTEMPTS }, { attempt: MAX_ATTEMPTS + 1 }]);
    expect(report.entries).toEqual(['webhooks.fifth-attempt']);
    expect(report.problems).toEqual([]);
  });

  it('gives up after the fourth failed attempt, and only under webhooks.fifth-attempt after the fifth', () => {
    expect(transition(deliveryMachine, 'pending', 'give_up', { attempt: MAX_ATTEMPTS })).toBe('failed');
    const switches = createDefects(['webhooks.fifth-attempt'], DEFECT_CATALOGUE);
    expect(transition(deliveryMachine, 'pending', 'give_up', { attempt: MAX_ATTEMPTS }, {}, switches)).toBe('pending');
    expect(transition(deliveryMachine, 'pending', 'give_up', { attempt: MAX_ATTEMPTS + 1 }, {}, switches)).toBe('failed');
  });
});
