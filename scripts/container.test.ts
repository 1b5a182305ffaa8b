// Issue 29 item 2: the image (Dockerfile) and the hosted shape as containers (compose.yaml), checked without
// a container runtime: the image is Node 20 slim, runs `tfas sandbox` as a non-root user with its store on
// a volume and a health check on /healthz; the compose file runs PostgreSQL, two instances of that image and
// HAProxy, each instance with the environment `npm run cluster` gives its instances (cluster.ts
// instanceEnv) and HAProxy with the configuration cluster.ts writes (haproxyConfig), for containers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { haproxyConfig, INSTANCE_ENTRY, instanceEnv } from '../simulator/testing/cluster.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), split into its stages. */
function dockerfileStages(text: string): Instruction[][] {
  const joined = text.replace(/\\\n/g, ' ');
  const instructions = joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
      return { keyword: keyword!.toUpperCase(), args: args!.replace(/\s+/g, ' ') };
    });
  const stages: Instruction[][] = [[]];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)!.push(instruction);
  }
  return stages;
}

const stages = dockerfileStages(read('Dockerfile'));
/** ARGs before the first FROM (what FROM lines may use). */
const globalArgs = Object.fromEntries(stages[0]!.filter((i) => i.keyword === 'ARG').map((i) => i.args.split('=') as [string, string]));
const final = stages.at(-1)!;
const last = (keyword: string) => final.filter((i) => i.keyword === keyword).at(-1)?.args;
/** ENV of the final stage (`ENV A=1 B=2` form). */
const imageEnv = Object.fromEntries(final.filter((i) => i.keyword === 'ENV').flatMap((i) => i.args.split(' ').map((pair) => pair.split('=') as [string, string])));

interface ComposeService {
  build?: string;
  image?: string;
  command?: unknown;
  entrypoint?: unknown;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
/** The simulator instances: the services built from ./Dockerfile. */
const instances = Object.entries(compose.services).filter(([, s]) => s.build === '.');

describe('the image (Dockerfile)', () => {
  it('is built on Node 20 slim, the base a local build may name instead', () => {
    expect(globalArgs.NODE_IMAGE).toBe('node:20-slim');
    expect(final[0]).toEqual({ keyword: 'FROM', args: '${NODE_IMAGE}' });
  });

  it('runs `tfas sandbox` from the packed package (the bundle of the entry point the cluster runs) as a non-root user', () => {
    expect(JSON.parse(last('CMD')!)).toEqual(['node', '/app/node_modules/trade-freight-sandbox/bin/tfas.js', 'sandbox']);
    // `tfas sandbox` runs build/simulator/main.mjs, esbuild's bundle of simulator/main.ts (cluster.ts INSTANCE_ENTRY).
    expect(read('bin/tfas.js')).toMatch(/^ {2}sandbox: \{ bundle: 'build\/simulator\/main\.mjs'/m);
    expect(read('scripts/build-simulator.mjs')).toContain(`bundleEntry('${INSTANCE_ENTRY}', SIMULATOR_BUNDLE`);
    expect(final.some((i) => i.keyword === 'RUN' && i.args.includes('npm install --omit=dev') && i.args.includes('/tmp/tfas.tgz'))).toBe(true);
    const user = last('USER');
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user!.split(':')[0]);
  });

  it('keeps its store on the volume /data, owned by that user, and listens on all interfaces at 4010', () => {
    expect(JSON.parse(last('VOLUME')!)).toEqual(['/data']);
    // The store is .sim-data/ under the working directory (config.ts: SIM_DB defaults to .sim-data/store.mdb).
    expect(last('WORKDIR')).toBe('/data');
    expect(read('simulator/config.ts')).toContain("env.SIM_DB ?? DEFAULT_DB_PATH");
    expect(read('simulator/config.ts')).toContain("DEFAULT_DB_PATH = '.sim-data/store.mdb'");
    expect(final.some((i) => i.keyword === 'RUN' && i.args.includes(`chown ${last('USER')}:${last('USER')} /data`))).toBe(true);
    expect(imageEnv).toMatchObject({ HOST: '0.0.0.0', PORT: '4010' });
    expect(last('EXPOSE')).toBe('4010');
  });

  it('is healthy while GET /healthz on its port answers 200', () => {
    const check = last('HEALTHCHECK')!;
    const [, options, command] = /^(.*?)CMD (\[.*\])$/.exec(check)!;
    expect(options).toMatch(/--interval=\d+s/);
    expect(options).toMatch(/--start-period=\d+s/);
    const argv = JSON.parse(command!) as string[];
    expect(argv.slice(0, 2)).toEqual(['node', '-e']);
    expect(argv[2]).toContain('http://127.0.0.1:${process.env.PORT || 4010}/healthz');
    expect(argv[2]).toContain('process.exit(r.status === 200 ? 0 : 1)');
  });
});

describe('the hosted shape (compose.yaml)', () => {
  it('runs PostgreSQL, two instances of the image and HAProxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['haproxy', 'postgres', 'sim-1', 'sim-2']);
    expect(instances.map(([name]) => name)).toEqual(['sim-1', 'sim-2']);
    for (const [name, service] of instances) {
      // The image's own command (`tfas sandbox`), not another.
      expect(service.command, name).toBeUndefined();
      expect(service.entrypoint, name).toBeUndefined();
    }
  });

  it("gives each instance the environment `npm run cluster` gives its instances: the shared database, artifacts, token and key, its own name", () => {
    const db = compose.services.postgres!.environment!;
    const storeUrl = `postgres://${db.POSTGRES_USER}:${db.POSTGRES_PASSWORD}@postgres:5432/${db.POSTGRES_DB}`;
    // cluster.ts creates the database `sandbox` (startPostgres({ database: 'sandbox' })).
    expect(db.POSTGRES_DB).toBe('sandbox');
    expect(read('simulator/testing/cluster.ts')).toContain("startPostgres({ database: 'sandbox'");
    // Its initdb's collation (postgres-binaries.ts initdbArgs, which the cluster's test server uses: --locale=C
    // -E UTF8), so lists sort as in the embedded store.
    expect(db.POSTGRES_INITDB_ARGS).toBe('--locale=C --encoding=UTF8');
    expect(read('simulator/kernel/store/postgres-binaries.ts')).toContain("'--locale=C', '-E', 'UTF8'");
    expect(read('simulator/testing/postgres-server.ts')).toContain('initdbArgs(');
    for (const [name, service] of instances) {
      const env = service.environment!;
      expect(env.SIM_ADMIN_TOKEN, name).toMatch(/^\$\{SIM_ADMIN_TOKEN:\?.+\}$/);
      expect(env.SIM_INTEGRATION_KEY, name).toMatch(/^\$\{SIM_INTEGRATION_KEY:\?.+\}$/);
      expect(env, name).toEqual(instanceEnv({ id: name, storeUrl, artifacts: '/data/artifacts', adminToken: env.SIM_ADMIN_TOKEN!, apiKey: env.SIM_INTEGRATION_KEY! }));
      // One artifacts directory for all: the same named volume, mounted where SIM_ARTIFACTS points into.
      expect(service.volumes, name).toEqual(['artifacts:/data']);
    }
    expect(compose.volumes).toHaveProperty('artifacts');
  });

  it('starts instance 1 once the database is healthy and the others once instance 1 is, as cluster.ts does', () => {
    expect(compose.services['sim-1']!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(compose.services['sim-2']!.depends_on).toEqual({ 'sim-1': { condition: 'service_healthy' } });
    expect(compose.services.haproxy!.depends_on).toEqual({ 'sim-1': { condition: 'service_healthy' }, 'sim-2': { condition: 'service_healthy' } });
  });

  it("puts HAProxy in front with cluster.ts's configuration over the instances' containers, published on 4010", () => {
    const haproxy = compose.services.haproxy!;
    expect(haproxy.volumes).toEqual(['./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro']);
    const port = Number(imageEnv.PORT);
    expect(read('deploy/haproxy.cfg')).toBe(haproxyConfig(port, instances.map(([name]) => ({ id: name, host: name, port })), '*'));
    expect(haproxy.ports).toEqual([`127.0.0.1:${port}:${port}`]);
  });
});
