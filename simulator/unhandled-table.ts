// The README's table of operations that answer 501 until their domain lands, rendered from the
// simulator itself so the README cannot drift (simulator/readme.test.ts, `npm run docs:unhandled`).
import { createSimulator } from './app.js';
import { createTestDeps } from './testing/kernel.js';

export const UNHANDLED_START = '<!-- unhandled:start -->';
export const UNHANDLED_END = '<!-- unhandled:end -->';

export async function renderUnhandledTable(): Promise<string> {
  const sim = await createSimulator(await createTestDeps({ config: { contract: 'all' } }));
  const rows = Object.entries(sim.unhandled).map(([version, ops]) => `| ${version} | ${ops.length} | ${ops.length ? ops.map((op) => `\`${op}\``).join(', ') : 'none'} |`);
  await sim.stop();
  return [UNHANDLED_START, '| version | count | operations answering 501 NOT_IMPLEMENTED |', '|---|--:|---|', ...rows, UNHANDLED_END].join('\n');
}

export function replaceUnhandledTable(readme: string, table: string): string {
  const start = readme.indexOf(UNHANDLED_START);
  const end = readme.indexOf(UNHANDLED_END);
  if (start === -1 || end === -1) throw new Error('README has no unhandled-operations markers');
  return readme.slice(0, start) + table + readme.slice(end + UNHANDLED_END.length);
}
