// The shape every domain offers the composition root.
import type { HandlerTable } from '../kernel/http/types.js';

export interface DomainModule {
  name: string;
  /** operationId -> handler, for the operations this domain serves. */
  handlers: HandlerTable;
  /** After the store is loaded: resume what was in flight (jobs, deliveries). */
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}
