// The defect catalogue: the kernel's defects, then those every domain's manifest declares (from its
// `<domain>.defects.ts`, in the order of domains/manifests.ts), gathered into the single list of ids
// (SIM_DEFECTS, GET/PUT /_sim/defects, the README table). Each id names one deliberate misbehaviour; the
// hook reading it sits where the behaviour lives (README "Defect injection"). Off unless switched on. Pure
// data: main.ts reads it before the store opens (importing a manifest builds nothing).
import type { DefectEntry } from '../kernel/defects.js';
import { KERNEL_DEFECTS } from '../kernel/kernel.defects.js';
import { DOMAINS } from '../domains/manifests.js';

export type { DefectEntry } from '../kernel/defects.js';

export const DEFECT_CATALOGUE: readonly DefectEntry[] = [...KERNEL_DEFECTS, ...DOMAINS.flatMap((d) => d.defects)];

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

