// signup.create-rules (spec 4.7): create takes every required field, `modules` with at least one of ship or
// trade, a complete `legalAcceptance`; anything less is 400. A slug already held by a live session is 409.
import { defineCheck } from '../../harness/check.js';
import { bodyOf, call, codeOf, createBody, createSession, freshSlug, requireSignup, SESSIONS } from './support.js';

const REQUIRED = ['companyName', 'slug', 'modules', 'adminEmail', 'legalAcceptance'];
const LEGAL_REQUIRED = ['termsVersion', 'privacyVersion', 'acceptedAt', 'ip'];

export const signupCreateRules = defineCheck({
  id: 'signup.create-rules',
  title: 'Signup create needs every required field, a module of ship or trade and a complete legal acceptance; a taken slug is 409',
  area: 'signup',
  needs: ['writes'],
  async run(ctx) {
    requireSignup(ctx);
    const without = (body: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));
    const base = createBody(freshSlug('rules'));
    const refused: Array<[string, unknown]> = [
      ...REQUIRED.map((field): [string, unknown] => [`without ${field}`, without(base, field)]),
      ...LEGAL_REQUIRED.map((field): [string, unknown] => [`legalAcceptance without ${field}`, { ...base, legalAcceptance: without(base.legalAcceptance as Record<string, unknown>, field) }]),
      ['modules empty', { ...base, modules: [] }],
      ['modules with another value', { ...base, modules: ['billing'] }],
      ['adminEmail not an email', { ...base, adminEmail: 'not-an-email' }],
    ];
    for (const [label, body] of refused) {
      const exchange = await call(ctx.client, 'POST', SESSIONS, body);
      ctx.expect(exchange.response.status === 400 && codeOf(exchange) === 'INVALID_REQUEST', 'signup-create-validated', `create ${label} answered ${exchange.response.status} ${String(codeOf(exchange) ?? '')}, not 400 INVALID_REQUEST (spec 4.7, 7)`, exchange);
    }

    const slug = freshSlug('taken');
    for (const modules of [['ship'], ['trade'], ['ship', 'trade']]) {
      const exchange = await call(ctx.client, 'POST', SESSIONS, createBody(freshSlug('modules'), { modules }));
      ctx.expect(exchange.response.status === 201, 'signup-created', `create with modules ${JSON.stringify(modules)} answered ${exchange.response.status}, not 201 (spec 4.7)`, exchange);
    }
    if (!(await createSession(ctx, ctx.client, slug))) return;
    const again = await call(ctx.client, 'POST', SESSIONS, createBody(slug, { companyName: 'Someone Else Inc.' }));
    ctx.expect(again.response.status === 409, 'signup-slug-taken', `a second session for slug ${slug}, held by a live session, answered ${again.response.status}, not 409 (${JSON.stringify(bodyOf(again)).slice(0, 200)})`, again);
  },
});
