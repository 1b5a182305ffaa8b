// npm start: the simulator from its bundle (scripts/build-simulator.mjs), rebuilt first when a source
// changed, run in this process. Stack traces point at the TypeScript sources through the source map.
// package.json runs it with --max-semi-space-size=8: a request's garbage is short-lived, and half of V8's
// default young generation kept the resident set ~15 MB lower under load at no measured throughput cost
// (issue 15 bench).
import { pathToFileURL } from 'node:url';
import { buildSimulator } from './build-simulator.mjs';

process.setSourceMapsEnabled(true);
await import(pathToFileURL(await buildSimulator()).href);
