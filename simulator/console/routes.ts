// The sandbox console (issue 16 item 2) at /_sim/console: one HTML page, a stylesheet and plain ES modules
// from this folder, served as they are (no build step, nothing fetched from elsewhere). The page and its
// assets need no token: they hold no data. Every datum comes from the control API (admin bearer, which the
// page asks for) and from the public API with a dashboard token the control API issues.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';

export const CONSOLE_PATH = '/_sim/console';

/** The only files served: anything else under /_sim/console/ is 404 (no directory walking). */
export const CONSOLE_ASSETS: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'api.js': 'text/javascript; charset=utf-8',
  'dom.js': 'text/javascript; charset=utf-8',
  'panels.js': 'text/javascript; charset=utf-8',
  'history.js': 'text/javascript; charset=utf-8',
  'actions.js': 'text/javascript; charset=utf-8',
  'charts.js': 'text/javascript; charset=utf-8',
  'report.html': 'text/html; charset=utf-8',
  'report.js': 'text/javascript; charset=utf-8',
};

/** This folder in the sources, or from the bundle npm start runs (build/simulator/main.mjs) the project's. */
export const CONSOLE_DIR = (() => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'index.html')) && path.basename(dir) === 'console') return dir;
    if (existsSync(path.join(dir, 'simulator', 'console', 'index.html'))) return path.join(dir, 'simulator', 'console');
  }
  return here;
})();

// Same-origin only: scripts, styles and fetches from this server; no inline script, no framing.
const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

// The report viewer (report.html) holds a client check's report in a sandboxed frame as a blob document,
// which inherits this page's policy: the report styles itself inline (its <style>, its style attributes), so
// this one page allows inline styles and blob frames; scripts stay this server's only (the frame runs none).
const REPORT_VIEWER_HEADERS = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

export function consoleRoutes(dir: string = CONSOLE_DIR): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    let name: string | undefined;
    if (ctx.path === CONSOLE_PATH || ctx.path === `${CONSOLE_PATH}/`) name = 'index.html';
    else if (ctx.path.startsWith(`${CONSOLE_PATH}/`)) name = ctx.path.slice(CONSOLE_PATH.length + 1);
    else return next();
    const type = Object.hasOwn(CONSOLE_ASSETS, name) ? CONSOLE_ASSETS[name] : undefined;
    if (!type) return next(); // the control router's 404 envelope
    ctx.set(name === 'report.html' ? REPORT_VIEWER_HEADERS : SECURITY_HEADERS);
    ctx.type = type;
    // Read per request: a few small files, and an edit shows on reload without a restart.
    ctx.body = await readFile(path.join(dir, name));
  };
}
