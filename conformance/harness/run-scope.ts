// What a run in the simulator profile borrows from a shared sandbox, and gives back (issue 16): the tenants it
// creates (deleted at the end of the check that created them, the second tenant at the end of the run), the
// virtual clock (moved only for the run's own tenants: the primary tenant and those it created, never the
// sandbox-wide clock every other tenant follows), and the webhook allow list (its local receiver added through
// the control API, the previous list put back at the end). So a run needs no restart and leaves the tenant
// list and the sandbox clock as it found them. Sandbox-defined throughout: only the simulator profile uses it.
import type { AdminClient } from './admin.js';

export class RunScope {
  private readonly ofCheck: string[] = [];
  private readonly ofRun: string[] = [];
  private allowListBefore: string[] | undefined;
  /** What could not be given back, for the report (a tenant that could not be deleted, the allow list). */
  readonly problems: string[] = [];

  /** The tenant of the integration key under test, whose clock is the run's clock; unknown, clock moves stay sandbox-wide. */
  constructor(readonly primaryTenantId: string | undefined) {}

  /** The tenants the run created and has not deleted yet: they move with the run's clock. */
  followers(): string[] {
    return [...this.ofRun, ...this.ofCheck];
  }

  adopt(tenantId: string, lifetime: 'check' | 'run'): void {
    (lifetime === 'run' ? this.ofRun : this.ofCheck).push(tenantId);
  }

  /** After each check: its tenants go. */
  async endCheck(admin: AdminClient): Promise<void> {
    await this.remove(admin, this.ofCheck.splice(0));
  }

  /** Adds a target (host:port) to the sandbox's webhook allow list, remembering the list as it was. */
  async allow(admin: AdminClient, target: string): Promise<void> {
    const before = await admin.allowTargets();
    this.allowListBefore ??= before;
    if (!before.includes(target)) await admin.setAllowTargets([...before, target]);
  }

  /** At the end of the run: the run's own tenants go, and the allow list is put back. */
  async endRun(admin: AdminClient): Promise<void> {
    await this.endCheck(admin);
    await this.remove(admin, this.ofRun.splice(0));
    if (this.allowListBefore) {
      await admin.setAllowTargets(this.allowListBefore).catch((error: Error) => this.problems.push(`the webhook allow list could not be put back: ${error.message}`));
      this.allowListBefore = undefined;
    }
  }

  private async remove(admin: AdminClient, tenantIds: string[]): Promise<void> {
    for (const tenantId of tenantIds) {
      await admin.deleteTenant(tenantId).catch((error: Error) => this.problems.push(`tenant ${tenantId} could not be deleted: ${error.message}`));
    }
  }
}

/** The tenant named by a bearer token of the sandbox (its `tenant_id` claim), or undefined when it names none. */
export function tenantOfToken(token: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { tenant_id?: unknown };
    return typeof claims.tenant_id === 'string' ? claims.tenant_id : undefined;
  } catch {
    return undefined;
  }
}
