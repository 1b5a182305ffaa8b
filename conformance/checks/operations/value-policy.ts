// Which inputs the suite may vary while staying valid for ANY deployment, and why the others keep their
// example value. A schema-valid value is not always a value the spec lets a client send: a country code
// matching `^[A-Z]{2}$` that is not in ISO 3166-1 may be refused (spec 4.4 "unsupported defaults"), a cursor
// the server never issued is refused (spec 4.2), a verification code is a secret. Those are recorded in the
// coverage report as "not generated: <reason>" instead of being sent.
import { isObject, type Json, type OpenApiDocument } from '../../../contracts/lib/bundle.js';
import { flatten, typesOf } from '../../harness/schema-arbitraries/resolve.js';

/** Inputs whose valid values come from reference data or the server, by name, with the reason. */
const KEPT_AS_EXAMPLE: Record<string, string> = {
  originCountry: 'ISO 3166-1 reference data (spec 4.4, 4.6): the pattern admits codes that are not countries',
  destinationCountry: 'ISO 3166-1 reference data (spec 4.6): the pattern admits codes that are not countries',
  defaultDestinationCountry: 'ISO 3166-1 reference data (spec 4.4): the pattern admits codes that are not countries',
  currency: 'ISO 4217 reference data (spec 4.6): the pattern admits codes that are not currencies',
  hsCode: 'tariff reference data (spec 4.6): a well-formed HS code need not exist',
  cursor: 'server-issued token (spec 4.2): a cursor the server never issued is refused',
  carrier: 'must match the carrier of the findings named (spec 4.5)',
  provider: 'tenant-configured provider (spec 4.6)',
  adapter_id: "checked against the key's adapter allowlist (spec 4.3)",
  code: 'a secret sent by e-mail (spec 4.7)',
  token: 'a secret sent by e-mail (spec 4.7)',
  status: 'a free-text status filter names a result status (spec 4.2 types the report `status` as a string; the sandbox refuses another value, sandbox-defined)',
};

export const keptReason = (name: string): string | undefined => KEPT_AS_EXAMPLE[name];

/**
 * Inputs whose only valid values are ones this server issued: the contract's example is a token the sandbox
 * issued, which another deployment may encode otherwise (spec 2.4 `cursor: string or null` and 4.2 `cursor`
 * string: no format is given) and rightly refuse as never issued. An optional one is left out of generated
 * valid requests; the walk with real cursors is the SIMA cursor check's (sima.results-cursor-walks-once).
 */
const SERVER_ISSUED = new Set(['cursor']);
export const serverIssued = (name: string): boolean => SERVER_ISSUED.has(name);

const FORMATS = ['uuid', 'date-time', 'date', 'email', 'uri'];

/**
 * A top-level value the suite may vary while staying valid for any deployment: closed domains (enum, const,
 * boolean, bounded numbers, ids, timestamps, reserved-domain e-mails and URLs) and strings generated from
 * their pattern, unless the input's name ties it to reference data (KEPT_AS_EXAMPLE). Free text keeps its
 * example value (its length edges are covered separately, see covering-requests.ts).
 */
export function variable(doc: OpenApiDocument, raw: Json, name?: string): boolean {
  if (name !== undefined && keptReason(name)) return false;
  const schema = flatten(doc, raw);
  if ('const' in schema || Array.isArray(schema.enum)) return true;
  const types = typesOf(schema) ?? [];
  if (types.length === 0) return false;
  return types.every((type) => {
    if (type === 'null' || type === 'boolean') return true;
    if (type === 'integer' || type === 'number') return schema.minimum !== undefined || schema.exclusiveMinimum !== undefined || schema.maximum !== undefined;
    if (type === 'string') return FORMATS.includes(String(schema.format)) || typeof schema.pattern === 'string';
    if (type === 'array') return schema.items !== undefined && variable(doc, schema.items as Json);
    return false;
  });
}
