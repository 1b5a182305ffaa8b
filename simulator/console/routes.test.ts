// The console's page and assets (routes.ts): served locally without a token, nothing else under its path,
// nothing from another origin, and no script that parses data as HTML.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';
import { CONSOLE_ASSETS, CONSOLE_DIR, CONSOLE_PATH } from './routes.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe('the sandbox console route', () => {
  it('serves the page and every asset without a token, each with its type and a same-origin content security policy', async () => {
    const page = await request(sandbox.server).get(CONSOLE_PATH);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<script type="module" src="/_sim/console/app.js"></script>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    for (const [name, type] of Object.entries(CONSOLE_ASSETS)) {
      const asset = await request(sandbox.server).get(`${CONSOLE_PATH}/${name}`);
      expect(asset.status, name).toBe(200);
      expect(asset.headers['content-type'], name).toBe(type);
      expect(asset.headers['x-content-type-options'], name).toBe('nosniff');
    }
  });

  it('lets only the report viewer style a report inline and frame it as a blob, in a frame that runs no script', async () => {
    const viewer = await request(sandbox.server).get(`${CONSOLE_PATH}/report.html`);
    expect(viewer.status).toBe(200);
    const policy = String(viewer.headers['content-security-policy']);
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).toContain('frame-src blob:');
    expect(policy).toContain("script-src 'self';");
    expect(String((await request(sandbox.server).get(CONSOLE_PATH)).headers['content-security-policy'])).not.toContain('unsafe-inline');
    const script = readFileSync(path.join(CONSOLE_DIR, 'report.js'), 'utf8');
    expect(script).toContain("sandbox: 'allow-same-origin'");
    expect(script).not.toContain('allow-scripts');
  });

  it('answers 404 in the error envelope for any other path under it, including one that climbs out of the folder', async () => {
    for (const name of ['routes.ts', 'console.browser.test.ts', '%2e%2e%2f%2e%2e%2fpackage.json', '..%2f..%2fpackage.json', 'nope.js']) {
      const answer = await request(sandbox.server).get(`${CONSOLE_PATH}/${name}`);
      expect(answer.status, name).toBe(404);
      expect(answer.body.code, name).toBe('NOT_FOUND');
    }
  });

  it('holds every asset the page loads: no URL of another origin, and every local import is a listed asset', () => {
    const files = readdirSync(CONSOLE_DIR).filter((f) => /\.(html|css|js)$/.test(f));
    expect(files.sort()).toEqual(Object.keys(CONSOLE_ASSETS).sort());
    for (const file of files) {
      // The SVG namespace (charts.js createElementNS) names a vocabulary and is never fetched: the one URL-like
      // text allowed, whole and in a string literal only.
      const text = readFileSync(path.join(CONSOLE_DIR, file), 'utf8').replaceAll("'http://www.w3.org/2000/svg'", "''");
      expect(text.match(/\b(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}\//gi) ?? [], file).toEqual([]);
      for (const [, imported] of text.matchAll(/from '\.\/([^']+)'/g)) expect(Object.keys(CONSOLE_ASSETS), `${file} imports ${imported}`).toContain(imported);
      for (const [, referenced] of text.matchAll(/(?:src|href)="\/_sim\/console\/([^"]+)"/g)) expect(Object.keys(CONSOLE_ASSETS), `${file} loads ${referenced}`).toContain(referenced);
    }
  });

  it('never parses data as HTML: no innerHTML, outerHTML, insertAdjacentHTML, document.write or inline handler in the scripts', () => {
    for (const file of Object.keys(CONSOLE_ASSETS).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(path.join(CONSOLE_DIR, file), 'utf8');
      expect(text, file).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/);
    }
    expect(readFileSync(path.join(CONSOLE_DIR, 'index.html'), 'utf8')).not.toMatch(/\son[a-z]+=|<script>/);
  });
});
