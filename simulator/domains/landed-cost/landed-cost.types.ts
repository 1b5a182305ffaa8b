// The landed-cost domain's types (spec 4.6). The request and response are the contract's; what the sandbox
// adds to the sandbox-defined parts (breakdown contents, de minimis structure) extends them.
import type { RequestBody, Schema } from '../../../contracts/generated/index.js';
import type { CustomsValueBasis } from '#fixtures/landed-cost/authorities.js';
import type { Relief } from '#fixtures/landed-cost/de-minimis.js';
import type { DomainModule } from '../domain.js';
import type { UsagePage } from './usage.store.js';

export type LandedCostRequest = NonNullable<RequestBody<'calculateLandedCost'>>;
export type LandedCostResponse = Schema<'LandedCostResponse'>;
export type QuantityUnit = Schema<'LandedCostQuantityUnit'>;

/** The canonical request the engine quotes: aliases dropped, defaults applied (spec 4.6). */
export interface QuoteInput {
  productValue: LandedCostRequest['productValue'];
  hsCode: LandedCostRequest['hsCode'];
  originCountry: LandedCostRequest['originCountry'];
  destinationCountry: LandedCostRequest['destinationCountry'];
  /** spec 4.6: 0 when absent. */
  shippingCost: number;
  /** 0 when absent. */
  insurance: number;
  /** null: not given (de minimis skipped, provider comparison skipped, amounts read as USD). */
  currency: NonNullable<LandedCostRequest['currency']> | null;
  /** Kept as given (spec 4.6: no rounding, no unit conversion); both or neither. */
  quantity: number | null;
  quantityUnit: QuantityUnit | null;
  provider: string | null;
}

export interface TaxLine {
  code: string;
  name: string;
  rate: number;
  /** What the rate was applied to: the customs value on the tax's basis, plus duty and charges. */
  baseAmount: number;
  amount: number;
}

export interface FeeLine {
  code: string;
  description: string;
  amount: number;
}

/** How the duty amount was reached. */
export type DutyBasis = 'customs_value' | 'quantity' | 'customs_value_and_quantity' | 'free' | 'de_minimis_relief';

/** The contract's breakdown, with the sandbox's parts: every amount in `currency`, adding up to the total. */
export type Breakdown = Schema<'LandedCostBreakdown'> & {
  productValue: number;
  shippingCost: number;
  insurance: number;
  customsValue: number;
  customsValueBasis: CustomsValueBasis;
  dutyRate: number | null;
  dutyExpression: string;
  dutyBasis: DutyBasis;
  taxes: TaxLine[];
  fees: FeeLine[];
  feesAmount: number;
  quantity?: number;
  quantityUnit?: QuantityUnit;
};

/** The contract's de minimis result, with the rule the sandbox applied and what it spared. */
export type DeMinimisResult = Schema<'LandedCostDeMinimis'> & { ruleId: string; relief: Relief };

/** What the landed-cost domain offers the composition root: its handler, and usage for the control API. */
export interface LandedCostDomain extends DomainModule {
  /** The tenant's billable landed-cost usage, newest first. */
  usage(tenantId: string, page: { limit: number; offset: number }): Promise<UsagePage>;
}

/** A legacy request field of spec 4.6 rule 7 and the canonical field it stands for. */
export interface LegacyAlias {
  alias: string;
  canonical: string;
}
