// The delivery machine under the deviations of the catalogue: none changes its rows (the webhooks domain's
// defects act at hook points, webhooks.hooks.ts), and its table answers what its rows say.
import { describe, expect, it } from 'vitest';
import { DEFECT_CATALOGUE } from '../../control/defects.catalogue.js';
import { checkMachineDeviations } from '../../testing/machine-deviations.js';
import { deliveryMachine, MAX_ATTEMPTS, type DeliveryAction } from './delivery.machine.js';

const DELIVERY_ACTIONS: readonly DeliveryAction[] = ['succeed', 'retry', 'give_up'];

describe('the delivery machine under its deviations', () => {
  it('answers what its table says, and no catalogue entry changes its rows', () => {
    const report = checkMachineDeviations(deliveryMachine, DELIVERY_ACTIONS, DEFECT_CATALOGUE, [{ attempt: 1 }, { attempt: MAX_ATTEMPTS }]);
    expect(report.entries).toEqual([]);
    expect(report.problems).toEqual([]);
  });
});
