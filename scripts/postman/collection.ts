// The Postman collection of contract v1.3.0 (issue 29 item 4): every operation, converted from the bundled
// contract by openapi-to-postmanv2 (folders by tag), then the hand-written workflow folders (workflows.ts),
// and an environment with the two values a user sets: baseUrl and apiKey.
//
// The output is committed (contracts/v1.3.0/postman*.json) and postman.test.ts checks it is what this
// generator writes now: the converter is a development tool that takes seconds, so the sandbox neither loads
// it nor waits for it at start-up; it serves the committed files with baseUrl set to its own address.
import { createHash } from 'node:crypto';
import { loadContract, type JsonObject } from '../../contracts/lib/bundle.js';
import { workflowItems } from './workflows.js';

export const POSTMAN_VERSION = 'v1.3.0';
/** Where npm start listens by default (simulator/config.ts), for a collection used without the environment. */
export const DEFAULT_BASE_URL = 'http://localhost:4010';
/** The environment's placeholder: the sandbox prints its default tenant's key at start (SIM_INTEGRATION_KEY pins it). */
export const API_KEY_PLACEHOLDER = 'paste-your-integration-key';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A stable identifier in UUID form from a text, so a regenerated collection is byte-identical. */
function stableId(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The converter gives each item and example a random id: they are replaced by ids made from their place. */
function stabilizeIds(value: Json, where: string): Json {
  if (Array.isArray(value)) return value.map((v, i) => stabilizeIds(v, `${where}/${i}`));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => (k === 'id' && typeof v === 'string' ? [k, stableId(`${where}/id`)] : [k, stabilizeIds(v, `${where}/${k}`)])));
}

// The converter fakes example values (json-schema-faker) with Math.random, and its faker keeps the function it
// found when it loaded: so Math.random is a seeded generator while the converter loads and converts, and
// the same contract gives the same collection. Outside a conversion the process's own Math.random answers.
const processRandom = Math.random;
let conversionRandom: (() => number) | null = null;
const delegatingRandom = () => (conversionRandom ?? processRandom)();
/** mulberry32: a small, well-known seeded generator. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function convert(doc: JsonObject): Promise<{ [key: string]: Json }> {
  conversionRandom = seeded(29);
  Math.random = delegatingRandom;
  try {
    const { default: Converter } = await import('openapi-to-postmanv2');
    return await new Promise((resolve, reject) =>
      Converter.convertV2({ type: 'json', data: doc as object }, { folderStrategy: 'Tags', requestParametersResolution: 'Example', exampleParametersResolution: 'Example' }, (error, result) => {
        if (error) return reject(error);
        if (!result.result) return reject(new Error(`openapi-to-postmanv2 refused the contract: ${result.reason}`));
        resolve(result.output[0].data as { [key: string]: Json });
      }),
    );
  } finally {
    conversionRandom = null;
    Math.random = processRandom;
  }
}

export async function buildCollection(): Promise<{ [key: string]: Json }> {
  const doc = loadContract(POSTMAN_VERSION);
  const converted = stabilizeIds(await convert(doc), 'collection') as { [key: string]: Json };
  const info = converted.info as { [key: string]: Json };
  return {
    info: {
      ...info,
      _postman_id: stableId(`${POSTMAN_VERSION}:${String(info.name)}`),
      name: `${String(info.name)} (${POSTMAN_VERSION})`,
      description: {
        type: 'text/markdown',
        content: [
          `Generated from contract ${POSTMAN_VERSION} by openapi-to-postmanv2 (npm run contracts:postman); the three "Workflow" folders are written by hand and chain ids through collection variables.`,
          'Set `baseUrl` and `apiKey` (the environment postman.environment.json beside this file has both). Requests send the bearer in `bearerToken`, which each workflow\'s first request fills from the token exchange.',
          'The workflow uploads read fixtures/ of the sandbox repository: run them from its root (`newman run ... --working-dir .`) or pick the files again in Postman.',
          '',
          (info.description as { content?: string } | undefined)?.content ?? '',
        ].join('\n'),
      },
    },
    item: [...((converted.item as Json[]) ?? []).filter((folder) => ((folder as { item?: Json[] }).item ?? [1]).length > 0), ...(workflowItems() as unknown as Json[])],
    auth: converted.auth ?? null,
    event: converted.event ?? [],
    // The converter's variables name the contract's placeholder hosts; the sandbox's own address replaces them.
    variable: [
      { key: 'baseUrl', value: DEFAULT_BASE_URL, type: 'string' },
      { key: 'apiKey', value: '', type: 'string' },
      { key: 'bearerToken', value: '', type: 'string' },
    ],
  };
}

export function buildEnvironment(baseUrl: string = DEFAULT_BASE_URL) {
  return {
    id: stableId(`${POSTMAN_VERSION}:environment`),
    name: `TFAS sandbox (${POSTMAN_VERSION})`,
    values: [
      { key: 'baseUrl', value: baseUrl, type: 'default', enabled: true },
      { key: 'apiKey', value: API_KEY_PLACEHOLDER, type: 'secret', enabled: true },
    ],
    _postman_variable_scope: 'environment',
  };
}

/** Files as committed: two-space JSON and a final newline. */
export const postmanText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
