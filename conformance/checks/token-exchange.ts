// Spec 5.1 / 2.1: the integration key exchanges for a short-lived bearer that opens tenant endpoints.
import { defineCheck } from '../harness/check.js';

export const tokenExchange = defineCheck({
  id: 'auth.token-exchange',
  title: 'The integration key exchanges for a Bearer token that opens tenant endpoints',
  area: 'auth',
  needs: [],
  async run({ client, expect }) {
    const exchange = await client.call('POST', '/api/auth/token/integration', { auth: { apiKey: client.apiKey } });
    if (!expect(exchange.response.status === 200, 'token-exchange', `the exchange answered ${exchange.response.status}, not 200`, exchange)) return;
    const body = exchange.response.body as { access_token: string; token_type: string; expires_in: number };
    expect(body.access_token.split('.').length === 3, 'token-is-jwt', 'access_token is not a JWT (three dot-separated parts)', exchange);
    expect(body.expires_in > 0 && body.expires_in <= 86_400, 'token-lifetime', `expires_in ${body.expires_in} is not a short lifetime`, exchange);
    const opened = await client.call('GET', '/api/jobs?limit=1', { auth: { bearer: body.access_token } });
    expect(opened.response.status === 200, 'bearer-opens-tenant-endpoints', `GET /api/jobs with the new token answered ${opened.response.status}`, opened);
  },
});
