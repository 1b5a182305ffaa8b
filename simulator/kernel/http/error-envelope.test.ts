// Only faults are logged as unexpected errors with a stack: a 5xx the sandbox answers on purpose (503
// FEATURE_DISABLED, 501 NOT_IMPLEMENTED) is one informational line, and every answer keeps the spec's envelope.
import Koa from 'koa';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { errorEnvelope } from './error-envelope.js';

function appThrowing(error: unknown) {
  const lines: Array<Record<string, any>> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.requestId = 'req-1';
    await next();
  });
  app.use(errorEnvelope(log));
  app.use(() => {
    throw error;
  });
  return { server: app.callback(), lines };
}

describe('the error envelope', () => {
  it('logs an escaped exception once as an unexpected error with its stack, and answers 500 INTERNAL_ERROR without internals', async () => {
    const { server, lines } = appThrowing(new TypeError('cannot read properties of undefined'));
    const res = await request(server).get('/api/jobs');
    expect([res.status, res.body]).toEqual([500, { code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' }]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'unexpected error', requestId: 'req-1' });
    expect(lines[0]!.err.stack).toContain('TypeError: cannot read properties of undefined');
  });

  it.each([
    ['FEATURE_DISABLED', 503],
    ['NOT_IMPLEMENTED', 501],
  ] as const)('answers a deliberate %s with %i and logs one line without a stack, not as unexpected', async (code, status) => {
    const { server, lines } = appThrowing(new ApiError(code, `deliberate ${code}`));
    const res = await request(server).get('/api/signup');
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: `deliberate ${code}`, status, code, requestId: 'req-1' })]);
    expect(JSON.stringify(lines)).not.toContain('stack');
    expect(JSON.stringify(lines)).not.toContain('unexpected error');
  });

  it('logs nothing for a 4xx', async () => {
    const { server, lines } = appThrowing(new ApiError('NOT_FOUND', 'job not found'));
    expect((await request(server).get('/api/jobs/x')).status).toBe(404);
    expect(lines).toEqual([]);
  });
});
