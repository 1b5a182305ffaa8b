// The bench's yardstick (issue 15 item 2): the least a Koa service can do for the same authenticated reads.
// Koa + @koa/router, parameters validated with ajv (the same validator library and options the simulator
// uses), the bearer header required, the body from an in-memory map, JSON out. No store, no tenant, no
// contract routing, no rate limit: what is left of the simulator's cost once the domain is taken away.
// Plain JavaScript, started with `node`, so its start-up is Node's own.
//
//   PORT=4100 node scripts/bench/reference-app.mjs
//   PUT /_seed?path=/api/jobs/<id>  (JSON body)  -> serves that body at GET <path>
import Router from '@koa/router';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Koa from 'koa';

const ajv = new Ajv2020({ allErrors: true, coerceTypes: false, strict: true });
addFormats.default ? addFormats.default(ajv) : addFormats(ajv);
const validJobParams = ajv.compile({ type: 'object', required: ['jobId'], properties: { jobId: { type: 'string', format: 'uuid' } } });
const validPageQuery = ajv.compile({
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, maximum: 100 }, cursor: { type: 'string', minLength: 1, maxLength: 512 }, status: { type: 'string', maxLength: 40 } },
  additionalProperties: false,
});

const bodies = new Map();
const app = new Koa();
const router = new Router();

const requireBearer = async (ctx, next) => {
  if (!/^Bearer \S+$/.test(ctx.get('authorization'))) {
    ctx.status = 401;
    ctx.body = { error: { code: 'INVALID_TOKEN', message: 'bearer required' } };
    return;
  }
  await next();
};
const invalid = (ctx, errors) => {
  ctx.status = 400;
  ctx.body = { error: { code: 'INVALID_REQUEST', message: ajv.errorsText(errors) } };
};
const serve = (ctx) => {
  const body = bodies.get(ctx.path);
  if (body === undefined) {
    ctx.status = 404;
    ctx.body = { error: { code: 'NOT_FOUND', message: 'not found' } };
    return;
  }
  ctx.body = body;
};

router.get('/api/jobs/:jobId', requireBearer, (ctx) => (validJobParams(ctx.params) ? serve(ctx) : invalid(ctx, validJobParams.errors)));
router.get('/api/sima/results', requireBearer, (ctx) => {
  const query = { ...ctx.query };
  if (typeof query.limit === 'string' && /^\d+$/.test(query.limit)) query.limit = Number(query.limit);
  return validPageQuery(query) ? serve(ctx) : invalid(ctx, validPageQuery.errors);
});
router.put('/_seed', async (ctx) => {
  let raw = '';
  for await (const chunk of ctx.req) raw += chunk;
  bodies.set(String(ctx.query.path), JSON.parse(raw));
  ctx.status = 204;
});
app.use(router.routes());
app.listen(Number(process.env.PORT ?? 4100), process.env.HOST ?? '127.0.0.1');
