// trade.upload-validation (spec 4.4, 7): `originCountry` and `defaultDestinationCountry` are required ISO
// 3166-1 alpha-2 codes: a code no country has (XX), or a missing default, is 400 INVALID_REQUEST naming
// the field, and opens no session.
import { defineCheck, type CheckContext } from '../../harness/check.js';
import { codeOf, feedCsv, feedForm, feedRows, feedTenant, send, UPLOAD_PATH } from './support.js';

export const tradeUploadValidation = defineCheck({
  id: 'trade.upload-validation',
  title: 'The feed upload refuses an unknown or missing country default with 400 naming the field',
  area: 'trade',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const { client } = await feedTenant(ctx, 'Conformance trade upload validation');
    const csv = feedCsv(feedRows('direct'));
    const cases: Array<[string, Record<string, string>, string]> = [
      ['originCountry XX', { originCountry: 'XX', defaultDestinationCountry: 'CA' }, 'originCountry'],
      ['defaultDestinationCountry ZZ', { originCountry: 'CN', defaultDestinationCountry: 'ZZ' }, 'defaultDestinationCountry'],
      ['no defaultDestinationCountry', { originCountry: 'CN' }, 'defaultDestinationCountry'],
    ];
    for (const [label, fields, field] of cases) {
      const exchange = await send(ctx, client, 'POST', UPLOAD_PATH, { form: () => feedForm(csv, fields) });
      const details = (exchange.response.body as { details?: { field?: unknown } } | null)?.details;
      ctx.expect(exchange.response.status === 400 && codeOf(exchange) === 'INVALID_REQUEST', 'feed-upload-refused', `an upload with ${label} answered ${exchange.response.status}, not 400 INVALID_REQUEST (spec 4.4: ISO 3166-1 alpha-2)`, exchange);
      if (exchange.response.status === 400) ctx.expect(details?.field === field, 'feed-upload-field', `the 400 for ${label} names field ${JSON.stringify(details?.field)}, not ${field} (spec 7)`, exchange);
    }
  },
});
