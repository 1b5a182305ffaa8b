// Boot: config -> store -> kernel -> simulator -> HTTP server + worker. `npm start` runs this.
import pino from 'pino';
import { loadConfig } from './config.js';
import { createSimulator } from './app.js';
import { DEFECT_IDS } from './control/defects.catalogue.js';
import { createClock, createScheduler, createTenantClocks } from './kernel/clock.js';
import { createDefects } from './kernel/defects.js';
import { createHttpServer } from './kernel/http/server.js';
import { randomIds } from './kernel/ids.js';
import { openStore } from './kernel/store/store.js';

const config = loadConfig();
// Defect injection: an unknown SIM_DEFECTS id refuses to start (README "Defect injection").
const defects = (() => {
  try {
    return createDefects(config.defects, DEFECT_IDS);
  } catch (error) {
    process.stderr.write(`SIM_DEFECTS: ${(error as Error).message}\n`);
    process.exit(1);
  }
})();
const log = pino({ level: config.logLevel, base: undefined });
const store = await openStore({ file: config.dbPath ?? undefined, compactAfterBytes: config.compactAfterBytes, onError: (err) => log.error({ err }, 'store write failed') });
const clock = createClock();
const clocks = createTenantClocks(clock);
const scheduler = createScheduler(clocks, (err) => log.error({ err }, 'scheduled task failed'));
const simulator = await createSimulator({ config, store, clock, clocks, scheduler, ids: randomIds, log, defects });
const identity = await simulator.start();

// Parser refusals answered in the envelope, slow or short requests timed out (kernel/http/server.ts).
const server = createHttpServer(simulator.app.callback(), {
  log,
  ids: randomIds,
  timeouts: { requestTimeoutMs: config.requestTimeoutMs, headersTimeoutMs: config.headersTimeoutMs },
});
server.listen(config.port, config.host, () => {
  const baseUrl = `http://${config.host}:${config.port}`;
  const lines = [
    `Trade Compliance and Freight Audit Service sandbox`,
    `  base URL        ${baseUrl}${simulator.versions.length > 1 ? `  (also ${simulator.versions.filter((v) => v.prefix).map((v) => v.prefix + '/').join(', ')})` : ''}`,
    `  contract        ${simulator.versions.map((v) => v.version).filter((v, i, all) => all.indexOf(v) === i).join(', ')}`,
    `  store           ${config.dbPath ?? '(memory)'}`,
    `  admin token     ${identity.adminToken}`,
    `  tenant          ${identity.tenantId}`,
    `  integration key ${identity.integrationKey ?? `(shown on first run; key id ${identity.integrationKeyId}. Create another: POST ${baseUrl}/_sim/tenants)`}`,
  ];
  if (defects.active().length) lines.push(`  DEFECTS ON      ${defects.active().join(', ')}  (deliberate misbehaviour; GET/PUT /_sim/defects)`);
  for (const [version, ops] of Object.entries(simulator.unhandled)) {
    if (ops.length) lines.push(`  not implemented yet in ${version} (answer 501): ${ops.join(', ')}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
});

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  server.close();
  server.closeAllConnections();
  simulator.stop().then(
    () => process.exit(0),
    (err) => {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
