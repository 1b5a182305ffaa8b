// The defect catalogue: the defects every domain declares in its `<domain>.defects.ts` (and the kernel's),
// gathered into the single list of ids (SIM_DEFECTS, GET/PUT /_sim/defects, the README table). Each id names
// one deliberate misbehaviour; the hook reading it sits where the behaviour lives (README "Defect
// injection"). Off unless switched on. Pure data: main.ts reads it before the store opens.
import type { DefectEntry } from '../kernel/defects.js';
import { KERNEL_DEFECTS } from '../kernel/kernel.defects.js';
import { AUTH_DEFECTS } from '../domains/auth/auth.defects.js';
import { BILLING_DEFECTS } from '../domains/billing/billing.defects.js';
import { CLASSIFICATION_DEFECTS } from '../domains/classification/classification.defects.js';
import { JOBS_DEFECTS } from '../domains/jobs/jobs.defects.js';
import { LANDED_COST_DEFECTS } from '../domains/landed-cost/landed-cost.defects.js';
import { SIMA_DEFECTS } from '../domains/sima/sima.defects.js';
import { SHIP_DEFECTS } from '../domains/ship/ship.defects.js';
import { SIGNUP_DEFECTS } from '../domains/signup/signup.defects.js';
import { TRADE_DEFECTS } from '../domains/trade/trade.defects.js';
import { WEBHOOKS_DEFECTS } from '../domains/webhooks/webhooks.defects.js';

export type { DefectEntry } from '../kernel/defects.js';

export const DEFECT_CATALOGUE: readonly DefectEntry[] = [...KERNEL_DEFECTS, ...AUTH_DEFECTS, ...JOBS_DEFECTS, ...WEBHOOKS_DEFECTS, ...BILLING_DEFECTS, ...SIMA_DEFECTS, ...TRADE_DEFECTS, ...LANDED_COST_DEFECTS, ...SIGNUP_DEFECTS, ...SHIP_DEFECTS, ...CLASSIFICATION_DEFECTS];

export const DEFECT_IDS: string[] = DEFECT_CATALOGUE.map((d) => d.id);

export const DEFECTS_START = '<!-- defects:start -->';
export const DEFECTS_END = '<!-- defects:end -->';

/** The README's catalogue table, rendered from the data above (simulator/control/defects.test.ts). */
export function renderDefectTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    DEFECTS_START,
    '| defect id | area | what the simulator does wrong |',
    '|---|---|---|',
    ...DEFECT_CATALOGUE.map((d) => `| \`${d.id}\` | ${d.area} | ${cell(d.description)} |`),
    DEFECTS_END,
  ].join('\n');
}

