// The defect catalogue: the kernel's defects, then those every domain's manifest declares (from its
// `<domain>.defects.ts`, in the order of domains/manifests.ts), gathered into the single list of ids
// (SIM_DEFECTS, GET/PUT /_sim/defects, the README table). Each id names one deliberate misbehaviour; the
// hook reading it sits where the behaviour lives (README "Defect injection"). Off unless switched on. Pure
// data: main.ts reads it before the store opens (importing a manifest builds nothing).
import type { DefectEntry } from '../kernel/defects.js';
import { KERNEL_DEFECTS, KERNEL_VARIANTS } from '../kernel/kernel.defects.js';
import { DOMAINS } from '../domains/manifests.js';

export type { DefectEntry } from '../kernel/defects.js';

export const DEFECT_CATALOGUE: readonly DefectEntry[] = [...KERNEL_DEFECTS, ...KERNEL_VARIANTS, ...DOMAINS.flatMap((d) => d.defects)];

/** Every id SIM_DEFECTS and PUT /_sim/defects accept: defects and variants alike. */
export const DEFECT_IDS: string[] = DEFECT_CATALOGUE.map((d) => d.id);

/** The entries that break a sentence of the spec on purpose (the suite must catch each). */
export const DEFECTS_ONLY: readonly DefectEntry[] = DEFECT_CATALOGUE.filter((d) => d.kind === 'defect');
/** The entries that make a choice the spec leaves open (the suite must accept each), with their spec citation. */
export const VARIANT_CATALOGUE: readonly DefectEntry[] = DEFECT_CATALOGUE.filter((d) => d.kind === 'variant');

export const DEFECTS_START = '<!-- defects:start -->';
export const DEFECTS_END = '<!-- defects:end -->';
export const VARIANTS_START = '<!-- variants:start -->';
export const VARIANTS_END = '<!-- variants:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The README's catalogue table, rendered from the data above (simulator/control/defects.test.ts). */
export function renderDefectTable(): string {
  return [
    DEFECTS_START,
    '| defect id | area | what the simulator does wrong |',
    '|---|---|---|',
    ...DEFECTS_ONLY.map((d) => `| \`${d.id}\` | ${d.area} | ${cell(d.description)} |`),
    DEFECTS_END,
  ].join('\n');
}


/** The README's variant table, rendered the same way, with the spec sentence each variant rests on. */
export function renderVariantTable(): string {
  return [
    VARIANTS_START,
    '| variant id | area | what the simulator does instead | the spec leaves it open |',
    '|---|---|---|---|',
    ...VARIANT_CATALOGUE.map((d) => `| \`${d.id}\` | ${d.area} | ${cell(d.description)} | ${cell(d.spec ?? '')} |`),
    VARIANTS_END,
  ].join('\n');
}
