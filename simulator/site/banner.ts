// The start-up banner of `npm start`: where everything is, and the credentials. An integration key is kept
// only as a hash, so after the first run the banner cannot show it again: it says how to get another one
// instead of leaving the user with "(shown on first run)" (issue 16).
import type { SandboxIdentity } from '../control/bootstrap.js';

export interface BannerInput {
  baseUrl: string;
  versions: Array<{ version: string; prefix: string }>;
  /** The embedded store's file (the journal store's with SIM_STORE=journal), a database URL (SIM_STORE), the
   *  sandbox's own PostgreSQL (SIM_STORE=local), or null for a memory store. */
  store: { file: string; journal: boolean } | { localDir: string; url: string } | string | null;
  identity: SandboxIdentity;
  /** This run issued a key because of --new-key. */
  newKeyIssued: boolean;
  defects: string[];
  unhandled: Record<string, string[]>;
}

/** Labels are padded to one column: `bannerField` (simulator/testing/process.ts) reads `  <label>  <value>`. */
const row = (label: string, value: string) => `  ${label.padEnd(15)} ${value}`;

export function bannerLines(input: BannerInput): string[] {
  const { baseUrl, versions, identity } = input;
  const prefixed = versions.filter((v) => v.prefix).map((v) => v.prefix + '/');
  const lines = [
    `Trade Compliance and Freight Audit Service sandbox`,
    row('base URL', `${baseUrl}${prefixed.length ? `  (also ${prefixed.join(', ')})` : ''}`),
    row('contract', versions.map((v) => v.version).filter((v, i, all) => all.indexOf(v) === i).join(', ')),
    row('start here', `${baseUrl}/  (API reference ${baseUrl}/docs, console ${baseUrl}/_sim/console, health ${baseUrl}/healthz)`),
    row(
      'store',
      !input.store ? '(memory)'
      : typeof input.store === 'string' ? `${input.store}  (shared by every instance with this SIM_STORE; empty it: POST /_sim/reset)`
      : 'localDir' in input.store ? `${input.store.localDir}  (PostgreSQL at ${input.store.url}, run by this sandbox; another sandbox needs its own: SIM_STORE=local:DIR; empty it: POST /_sim/reset)`
      : input.store.journal ? `${input.store.file}  (journal store; another sandbox needs its own: SIM_STORE=journal:FILE; empty it: POST /_sim/reset)`
      : `${input.store.file}  (another sandbox needs its own: SIM_DB or --db; empty it: POST /_sim/reset)`,
    ),
    row('admin token', identity.adminToken),
    row('tenant', identity.tenantId),
  ];
  if (identity.integrationKey) {
    lines.push(row('integration key', `${identity.integrationKey}${input.newKeyIssued ? '  (new; earlier keys still work)' : ''}`));
  } else {
    lines.push(
      row('integration key', `(key id ${identity.integrationKeyId}: shown only when issued, the store keeps its hash)`),
      row('another key', `npm start -- --new-key, or: curl -X POST ${baseUrl}/_sim/tenants/${identity.tenantId}/integration-keys -H "authorization: Bearer <admin token>"`),
    );
  }
  if (input.defects.length) lines.push(row('DEFECTS ON', `${input.defects.join(', ')}  (deliberate misbehaviour; GET/PUT /_sim/defects)`));
  for (const [version, ops] of Object.entries(input.unhandled)) {
    if (ops.length) lines.push(`  not implemented yet in ${version} (answer 501): ${ops.join(', ')}`);
  }
  return lines;
}
