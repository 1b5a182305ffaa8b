// The settings the kernel is built with (KernelDeps.config). The kernel names only what it reads itself; the
// boot file's SimulatorConfig (simulator/config.ts) extends KernelConfig and merges itself into DepsConfig,
// so that a domain reads its own settings through the same deps while no kernel file knows the boot file.
export interface KernelConfig {
  /** Uploaded files and generated documents (kernel/uploads); '' keeps them under the system's temp dir. */
  artifactsDir: string;
  /** Honour `X-Sim-Fault`, one request's faults (kernel/http/fault-scope.ts). */
  allowFaultHeader: boolean;
}

/** What KernelDeps.config holds: the kernel's settings and whatever the boot file adds by declaration merging. */
export interface DepsConfig extends KernelConfig {}
