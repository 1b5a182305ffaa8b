// Bounds the spec leaves open and the contract states (sandbox-defined): read from the contract, so that what
// a domain imports from files (catalog uploads, trade feeds) is refused when the API could not address it.
import { isObject, loadContract } from '../../contracts/lib/bundle.js';

/** `maxLength` of the contract's shared path or query parameter `name` (components.parameters). */
export function parameterMaxLength(name: string, version = 'v1.3.0'): number {
  const param = loadContract(version).components.parameters;
  const schema = isObject(param) && isObject(param[name]) && isObject(param[name].schema) ? param[name].schema : undefined;
  if (typeof schema?.maxLength !== 'number') throw new Error(`the contract states no maxLength for components.parameters.${name}`);
  return schema.maxLength;
}
