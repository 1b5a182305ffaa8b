// Legacy field aliases (spec 4.6 rule 7, 9.4): detected, never rejected. The aliases are the contract's
// (`x-alias-of` on LandedCostRequest), read once at start-up, so the contract stays their one list. An alias
// present without its canonical field is flagged in `X-Deprecation-Hint` (entries `use 'canonical' not
// 'alias'`, separated by semicolons) and its value dropped: the canonical default applies. An alias
// alongside its canonical field is dropped too, without a flag.
import { isObject, loadContract, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { deref } from '../../../contracts/lib/operations.js';
import { NO_DEFECTS } from '../../kernel/defects.js';
import { LANDED_COST_HOOKS, type QuoteDeviations } from './landed-cost.hooks.js';
import type { LegacyAlias } from './landed-cost.types.js';

/** The landed-cost request's aliases, in the contract's order. */
export function contractAliases(doc: OpenApiDocument = loadContract('v1.3.0')): LegacyAlias[] {
  const schema = deref(doc, doc.components.schemas && isObject(doc.components.schemas) ? doc.components.schemas.LandedCostRequest : null);
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const aliases = Object.entries(properties).flatMap(([alias, property]) => (isObject(property) && typeof property['x-alias-of'] === 'string' ? [{ alias, canonical: property['x-alias-of'] }] : []));
  if (!aliases.length) throw new Error('the contract declares no landed-cost aliases (x-alias-of on LandedCostRequest)');
  return aliases;
}

export interface AliasDetection {
  /** Aliases sent without their canonical field, in the order the request gave them. */
  flagged: LegacyAlias[];
  /** The request without any alias. */
  body: Record<string, unknown>;
}

export function detectAliases(body: Record<string, unknown>, aliases: readonly LegacyAlias[], deviations: QuoteDeviations = NO_DEFECTS): AliasDetection {
  const byAlias = new Map(aliases.map((a) => [a.alias, a]));
  const flagged: LegacyAlias[] = [];
  const canonical: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    const alias = byAlias.get(field);
    if (!alias) {
      canonical[field] = value;
      continue;
    }
    const lone = !(alias.canonical in body);
    if (lone || deviations.at(LANDED_COST_HOOKS.aliasBesideCanonicalFlagged, false, alias)) flagged.push(alias);
    if (lone && deviations.at(LANDED_COST_HOOKS.loneAliasValueKept, false, alias)) canonical[alias.canonical] = value;
  }
  return { flagged, body: canonical };
}

/** spec 4.6 rule 7: `use 'canonical' not 'alias'` entries, separated by semicolons. */
export const deprecationHint = (flagged: readonly LegacyAlias[]): string => flagged.map(({ alias, canonical }) => `use '${canonical}' not '${alias}'`).join('; ');
