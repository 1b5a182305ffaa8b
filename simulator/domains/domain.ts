// The shape every domain offers the composition root.
import type { DashboardHandlerTable, HandlerTable } from '../kernel/http/types.js';

export interface DomainModule {
  name: string;
  /** operationId -> handler, for the operations this domain serves. */
  handlers: HandlerTable;
  /** operationId -> handler, for the dashboard-only routes this domain serves (contracts/sandbox-dashboard.openapi.yaml). */
  dashboardHandlers?: DashboardHandlerTable;
  /** After the store is loaded: resume what was in flight (jobs, deliveries). */
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}
