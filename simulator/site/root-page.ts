// GET /: the sandbox's front page. Issue 16: "GET / is 404". It names every place a newcomer needs, as links
// a browser follows and as JSON a script reads; no token, no tenant data.
import { CONTRACT_VERSIONS, CONTROL_CONTRACT } from '../../contracts/lib/bundle.js';

export interface RootIndex {
  name: string;
  api: Array<{ version: string; baseUrl: string }>;
  docs: string;
  console: string;
  health: string;
  contracts: Array<{ name: string; served: boolean; json: string; yaml: string; docs: string }>;
  control: { base: string; contract: string; auth: string };
  readme: Array<{ topic: string; file: string; section: string | null }>;
}

/** README sections a newcomer reads first (root-page.test.ts checks each heading exists). */
export const README_TOPICS: RootIndex['readme'] = [
  { topic: 'Try it: the first requests, where state lives, resetting', file: 'README.md', section: 'Try it' },
  { topic: 'Certify a deployment with the conformance suite', file: 'README.md', section: 'Certify a deployment' },
  { topic: 'Every setting and its default', file: 'simulator/README.md', section: 'Settings' },
  { topic: 'The control API (/_sim/): tenants, keys, clock, webhooks, reset', file: 'simulator/README.md', section: 'Sandbox control API' },
  { topic: 'Defect injection', file: 'simulator/README.md', section: 'Defect injection' },
  { topic: 'Persistence: the store, its journal and lock', file: 'simulator/README.md', section: 'Persistence' },
  { topic: 'Conformance profiles and options', file: 'conformance/README.md', section: 'Profiles' },
];

export function rootIndex(origin: string, versions: Array<{ version: string; prefix: string }>): RootIndex {
  const served = new Set(versions.map((v) => v.version));
  const contract = (name: string) => ({
    name,
    served: name === CONTROL_CONTRACT || served.has(name),
    json: `/contracts/${name}/openapi.json`,
    yaml: `/contracts/${name}/openapi.yaml`,
    docs: `/docs?version=${name}`,
  });
  return {
    name: 'Trade Compliance and Freight Audit Service sandbox',
    api: versions.map(({ version, prefix }) => ({ version, baseUrl: `${origin}${prefix}` })),
    docs: '/docs',
    console: '/_sim/console',
    health: '/healthz',
    contracts: [...CONTRACT_VERSIONS.map(contract), contract(CONTROL_CONTRACT)],
    control: { base: '/_sim/', contract: `/contracts/${CONTROL_CONTRACT}/openapi.json`, auth: 'Authorization: Bearer <admin token printed at start-up>' },
    readme: README_TOPICS,
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const link = (href: string, text = href) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

export function renderRootPage(index: RootIndex): string {
  const contractRows = index.contracts
    .map((c) => `<tr><td>${escapeHtml(c.name)}${c.name === CONTROL_CONTRACT ? ' (control API)' : c.served ? '' : ' (not served by this run)'}</td><td>${link(c.json, 'JSON')} · ${link(c.yaml, 'YAML')} · ${link(c.docs, 'reference')}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(index.name)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1d2430; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 1.6rem; }
code { background: #f2f4f7; padding: 0 .25rem; border-radius: 3px; }
td { padding: .15rem 1rem .15rem 0; vertical-align: top; }
</style>
</head>
<body>
<h1>${escapeHtml(index.name)}</h1>
<p>A sandbox of the public interface: the same contract, state machines, errors and signed webhooks, with a virtual clock and a control API.</p>
<h2>Start here</h2>
<table>
${index.api.map((a) => `<tr><td>API base${index.api.length > 1 ? ` (${escapeHtml(a.version)})` : ''}</td><td><code>${escapeHtml(a.baseUrl)}</code> (paths under <code>/api/</code>; get a bearer with <code>POST /api/auth/token/integration</code> and the integration key)</td></tr>`).join('\n')}
<tr><td>API reference</td><td>${link(index.docs)}</td></tr>
<tr><td>Sandbox console</td><td>${link(index.console)} (asks for the admin token)</td></tr>
<tr><td>Health</td><td>${link(index.health)}</td></tr>
<tr><td>Control API</td><td><code>${escapeHtml(index.control.base)}</code> with <code>${escapeHtml(index.control.auth)}</code>; contract ${link(index.control.contract)}</td></tr>
</table>
<h2>Contracts</h2>
<table>
${contractRows}
</table>
<h2>Read next</h2>
<ul>
${index.readme.map((r) => `<li>${escapeHtml(r.topic)}: <code>${escapeHtml(r.file)}</code>${r.section ? `, section "${escapeHtml(r.section)}"` : ''}</li>`).join('\n')}
</ul>
<p>The same links as JSON: <code>curl -H 'accept: application/json' ${escapeHtml(index.api[0]?.baseUrl ?? '')}/</code></p>
</body>
</html>
`;
}
