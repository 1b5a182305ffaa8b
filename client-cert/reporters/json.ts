// The machine-readable certificate: every rule with its verdict and evidence per scenario, and each run's
// evidence as the sandbox recorded it (secrets are already masked by the request log).
import type { Certificate } from '../types.js';

/** Bumped when a field changes meaning or disappears; new fields do not bump it. */
export const CLIENT_JSON_SCHEMA_VERSION = 1;

export function renderClientJson(certificate: Certificate): string {
  return `${JSON.stringify({ schemaVersion: CLIENT_JSON_SCHEMA_VERSION, ...certificate }, null, 2)}\n`;
}
