// What the bench commands (bench.ts, cluster-bench.ts) share: the load options of their command lines,
// the scenarios named by --only, the machine's description, and temporary directories removed with every
// child process on the way out.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killAllBenchProcesses } from './processes.js';
import { SCENARIOS, type Scenario } from './scenarios.js';

/** parseArgs options of a load round: run seconds, measured rounds, warm-up seconds, connections. */
export const LOAD_ARGS = {
  seconds: { type: 'string', default: '5' },
  rounds: { type: 'string', default: '3' },
  warmup: { type: 'string', default: '2' },
  connections: { type: 'string', default: '10' },
} as const;

export interface LoadOptions {
  seconds: number;
  rounds: number;
  warmup: number;
  connections: number;
}

export function loadOptionsOf(values: Record<keyof typeof LOAD_ARGS, string | undefined>): LoadOptions {
  return { seconds: Number(values.seconds), rounds: Number(values.rounds), warmup: Number(values.warmup), connections: Number(values.connections) };
}

/** The scenarios `--only` names (comma-separated), in SCENARIOS' order; every one when absent. An unknown id exits. */
export function scenariosNamed(only: string | undefined): Scenario[] {
  if (only === undefined) return [...SCENARIOS];
  const ids = new Set(only.split(','));
  for (const id of ids) if (!SCENARIOS.some((s) => s.id === id)) throw new Error(`--only: unknown scenario ${id} (${SCENARIOS.map((s) => s.id).join(', ')})`);
  return SCENARIOS.filter((s) => ids.has(s.id));
}

const tempDirs: string[] = [];
process.on('exit', () => {
  killAllBenchProcesses();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A new temporary directory, removed when the process exits (whatever happened). */
export function benchTempDir(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  tempDirs.push(dir);
  return dir;
}

/** The machine a run's figures belong to: cores, CPU model, memory, OS and Node. */
export function machineDescription(): string {
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, node ${process.version}`;
}
