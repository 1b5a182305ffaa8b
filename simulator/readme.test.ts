import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderUnhandledTable, UNHANDLED_END, UNHANDLED_START } from './unhandled-table.js';

describe('simulator/README.md', () => {
  it('lists exactly the operations that answer 501 (regenerate with npm run docs:unhandled)', async () => {
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const current = readme.slice(readme.indexOf(UNHANDLED_START), readme.indexOf(UNHANDLED_END) + UNHANDLED_END.length);
    expect(current).toBe(await renderUnhandledTable());
  });
});
