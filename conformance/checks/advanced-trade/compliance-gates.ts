// advanced-trade.compliance-gates (spec 4.6: full quoteability needs the compliance check's `quoteReadiness`
// to be `quoteable`): a product whose origin is unknown (ISO 3166-1 user-assigned ZZ, "unknown") is never
// quoteable. In the simulator profile, whose gates are documented (simulator/README.md), also: a clean
// product and corridor is quoteable (so the gate is not simply shut), and goods under a trade-remedy measure
// for their origin (CBSA SIMA measure UDS: upholstered seating 9401.61.10 from VN) are not.
import { defineCheck } from '../../harness/check.js';
import { bodyOf, COMPLIANCE_PATH, refusedOurShape, tradeTenant } from './support.js';

const CLEAN = { hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'US', productValue: 1200, currency: 'USD' };

export const complianceGates = defineCheck({
  id: 'advanced-trade.compliance-gates',
  title: 'The compliance check is never quoteable with an unknown origin, nor (simulator) under a trade-remedy measure',
  area: 'advanced-trade',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await tradeTenant(ctx, 'Conformance advanced trade: compliance');
    const send = (body: Record<string, unknown>) => tenant.client.call('POST', COMPLIANCE_PATH, { json: body });
    const unknownOrigin = await send({ ...CLEAN, originCountry: 'ZZ' });
    refusedOurShape(ctx, unknownOrigin, `POST ${COMPLIANCE_PATH}`);
    if (!ctx.expect(unknownOrigin.response.status === 200, 'compliance-served', `POST ${COMPLIANCE_PATH} answered ${unknownOrigin.response.status}, not 200`, unknownOrigin)) return;
    ctx.expect(bodyOf(unknownOrigin).quoteReadiness !== 'quoteable', 'unknown-origin-not-quoteable', `origin ZZ (unknown) answered quoteReadiness quoteable: a quote needs a known origin`, unknownOrigin);
    if (ctx.options.profile !== 'simulator') return;

    const clean = await send(CLEAN);
    ctx.expect(bodyOf(clean).quoteReadiness === 'quoteable', 'clean-corridor-quoteable', `cotton T-shirts 6109.10 CN -> US answered quoteReadiness ${JSON.stringify(bodyOf(clean).quoteReadiness)}, not quoteable (nothing blocks them in the sandbox)`, clean);
    const atRisk = await send({ hsCode: '9401.61.10', originCountry: 'VN', destinationCountry: 'CA', productValue: 4200, currency: 'CAD' });
    ctx.expect(bodyOf(atRisk).quoteReadiness !== 'quoteable', 'trade-remedy-blocks', `upholstered seating 9401.61.10 VN -> CA (SIMA measure UDS) answered quoteReadiness quoteable: AT_RISK screening must block it`, atRisk);
  },
});
