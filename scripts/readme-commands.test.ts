// The documents' commands are claims (developers' guide: every claim in the README is true): each
// `npm run NAME` a tracked Markdown file names must be a script of package.json, so a renamed or dropped
// script fails here instead of in a reader's terminal. What the commands then do is tested where they live.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The script names `npm run [-s] NAME` mentions in a text. */
export function npmRunNames(text: string): string[] {
  return [...text.matchAll(/npm run (?:-s |--silent )?([a-z][a-z0-9:_-]*)/g)].map((m) => m[1]);
}

describe('the commands the documents name', () => {
  it('reads the script names out of npm run mentions, options and all', () => {
    expect(npmRunNames('`npm run bench -- --only x` then npm run -s conform:mutate and npm run')).toEqual(['bench', 'conform:mutate']);
  });

  it('names only scripts package.json has, in every tracked Markdown file', () => {
    const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const files = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files).toContain('README.md');
    const unknown = files.flatMap((file) => npmRunNames(readFileSync(path.join(ROOT, file), 'utf8')).filter((name) => !(name in scripts)).map((name) => `${file}: npm run ${name}`));
    expect(unknown).toEqual([]);
  });
});
