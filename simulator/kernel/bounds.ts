// Bounds the spec leaves open and the contract states (sandbox-defined): read from the contract, so that the
// importers that take SKUs from files (catalog uploads, trade feeds) refuse what the API could not address.
import { isObject, loadContract } from '../../contracts/lib/bundle.js';

/** The longest SKU: `maxLength` of the SKU path parameter of the evidence endpoint (spec 4.2). */
export const MAX_SKU_LENGTH: number = (() => {
  const param = loadContract('v1.3.0').components.parameters;
  const schema = isObject(param) && isObject(param.SimaSku) && isObject(param.SimaSku.schema) ? param.SimaSku.schema : undefined;
  if (typeof schema?.maxLength !== 'number') throw new Error('the contract states no maxLength for the SKU (components.parameters.SimaSku)');
  return schema.maxLength;
})();
