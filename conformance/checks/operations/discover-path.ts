// Finding real ids for reads (so a detail GET is seen with a body, not only as a 404).
import { isObject, type Json, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { deref, type ContractOperation } from '../../../contracts/lib/operations.js';
import type { CheckContext } from '../../harness/check.js';
import type { LoadedContract } from '../../harness/contract.js';
import { flatten } from '../../harness/schema-arbitraries/resolve.js';
import { isRead, operationInputs } from './inputs.js';
import { exampleRequest, prepare, type Prepared } from './requests.js';
import { send } from './send.js';

function responseProperties(doc: OpenApiDocument, op: ContractOperation): string[] {
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  const names: string[] = [];
  for (const [status, raw] of Object.entries(responses)) {
    if (!/^2/.test(status)) continue;
    const response = deref(doc, raw);
    const content = isObject(response) && isObject(response.content) ? response.content : {};
    for (const media of Object.values(content)) {
      if (!isObject(media)) continue;
      const flat = flatten(doc, (media.schema ?? {}) as Json);
      if (isObject(flat.properties)) names.push(...Object.keys(flat.properties));
    }
  }
  return names;
}

function idFromItems(body: unknown, name: string): string | undefined {
  if (!isObject(body)) return undefined;
  for (const value of Object.values(body)) {
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (!isObject(item)) continue;
      const id = item[name] ?? (name === 'id' || /Id$/.test(name) ? item.id : undefined);
      if (typeof id === 'string' && id) return id;
    }
  }
  return undefined;
}

/**
 * For a read with one path id: an id the tenant has, from the list at the parent path, or (when the
 * profile allows writes) from the contract's own example request to an operation whose receipt names it
 * (a job id from an enqueue receipt, spec 2.3). Setup calls are not checked here: they have their own checks.
 */
export async function discoverPath(ctx: CheckContext, contract: LoadedContract, prepared: Prepared): Promise<Record<string, string> | undefined> {
  const { op } = prepared.inputs;
  const pathParams = prepared.inputs.params.filter((p) => p.in === 'path');
  if (!isRead(op) || pathParams.length !== 1) return undefined;
  const param = pathParams[0];
  const prefix = op.path.slice(0, op.path.indexOf('/{'));
  const list = contract.operations.find((o) => o.method === 'get' && o.path === prefix);
  if (list) {
    const takesLimit = operationInputs(contract.doc, list).params.some((p) => p.name === 'limit' && p.in === 'query');
    const exchange = await ctx.client.call('GET', takesLimit ? `${prefix}?limit=5` : prefix, { unchecked: true });
    const id = exchange.response.status === 200 ? idFromItems(exchange.response.body, param.name) : undefined;
    if (id) return { [param.name]: id };
  }
  // Only ids are produced: a receipt names the id of what it created (spec 2.3), not other keys.
  if (ctx.options.profile === 'readonly' || !(param.name === 'id' || /Id$/.test(param.name))) return undefined;
  const singular = prefix.split('/').pop()?.replace(/s$/, '') ?? '';
  const wanted = param.name === 'id' ? `${singular}Id` : param.name;
  const producers = contract.operations
    .filter((o) => o.method === 'post' && responseProperties(contract.doc, o).includes(wanted))
    .sort((a, b) => Number(b.path.startsWith(`${prefix}/`) || b.path === prefix) - Number(a.path.startsWith(`${prefix}/`) || a.path === prefix));
  for (const producer of producers.slice(0, 2)) {
    const inputs = operationInputs(contract.doc, producer);
    const setup = prepare(contract, inputs, ctx.seed);
    const exchange = await send(ctx, setup, exampleRequest(setup), { unchecked: true });
    const id = exchange.response.status < 300 && isObject(exchange.response.body) ? exchange.response.body[wanted] : undefined;
    if (typeof id === 'string' && id) return { [param.name]: id };
  }
  return undefined;
}
