// Types of the contract operations by operationId, over the generated files beside this one (written by
// `npm run contracts:types`; this file is written by hand). Types only: importing it costs nothing at run time.
//
// An operation is typed from the newest public version that has it (v1.3.0, else v1.2.0, else v1.1.0), so an
// operation that a later version removed (signup, listShipmentAudits) still has a type; the control API's
// operations come from contracts/sandbox-control.openapi.yaml, the dashboard-only routes' from
// contracts/sandbox-dashboard.openapi.yaml. Webhook operations (onJobCompleted, ...) are
// deliveries the service sends, not requests it answers, so they are not OperationIds.
import type * as V1_3_0 from './v1.3.0.js';
import type * as V1_2_0 from './v1.2.0.js';
import type * as V1_1_0 from './v1.1.0.js';
import type * as Control from './sandbox-control.js';
import type * as Dashboard from './sandbox-dashboard.js';

export type { V1_3_0, V1_2_0, V1_1_0, Control, Dashboard };

/** operationId of every request operation of the public contract, in any version. */
export type OperationId = V1_3_0.PathOperationId | V1_2_0.PathOperationId | V1_1_0.PathOperationId;

/** operationId of every operation of the control API (`/_sim/...`). */
export type ControlOperationId = Control.PathOperationId;

/** operationId of every dashboard-only route (contracts/sandbox-dashboard.openapi.yaml; spec 1, 5.5). */
export type DashboardOperationId = Dashboard.PathOperationId;

export type AnyOperationId = OperationId | ControlOperationId | DashboardOperationId;

/** The openapi-typescript operation object of `Op`, from the newest version that has it. */
export type OperationOf<Op extends AnyOperationId> = Op extends V1_3_0.PathOperationId
  ? V1_3_0.operations[Op]
  : Op extends V1_2_0.PathOperationId
    ? V1_2_0.operations[Op]
    : Op extends V1_1_0.PathOperationId
      ? V1_1_0.operations[Op]
      : Op extends ControlOperationId
        ? Control.operations[Op]
        : Op extends DashboardOperationId
          ? Dashboard.operations[Op]
          : never;

/** What a handler receives for parameters an operation does not declare: an object with no known keys. */
export type NoParams = Record<string, never>;

/** The schema type of a request body's content: JSON if offered, else multipart/form-data, else any media type. */
type ContentBody<C> = C extends { 'application/json': infer T }
  ? T
  : C extends { 'multipart/form-data': infer T }
    ? T
    : C[keyof C];

// openapi-typescript writes `requestBody?: never` for no body, `requestBody?: {...}` for an optional body and
// `requestBody: {...}` for a required one.
type BodyOfOperation<O> = O extends { requestBody?: infer R }
  ? [NonNullable<R>] extends [never]
    ? undefined
    : NonNullable<R> extends { content: infer C }
      ? ContentBody<C> | (O extends { requestBody: unknown } ? never : undefined)
      : never
  : undefined;

type Declared<P> = [NonNullable<P>] extends [never] ? NoParams : NonNullable<P>;

/**
 * The request body of `Op` as the handler receives it: the JSON body type (the multipart/form-data schema for
 * uploads; the files themselves arrive as `files`), `| undefined` when the body is optional, and `undefined`
 * when the operation takes no body.
 */
export type RequestBody<Op extends AnyOperationId> = BodyOfOperation<OperationOf<Op>>;

/** The query parameters of `Op` (all optional unless the contract requires one); `NoParams` when it has none. */
export type QueryOf<Op extends AnyOperationId> = OperationOf<Op> extends { parameters: { query?: infer Q } } ? Declared<Q> : NoParams;

/** The path parameters of `Op`; `NoParams` when it has none. */
export type ParamsOf<Op extends AnyOperationId> = OperationOf<Op> extends { parameters: { path?: infer P } } ? Declared<P> : NoParams;

/** A named schema of the current contract (v1.3.0), e.g. `Schema<'Job'>`: domains type what they send with it. */
export type Schema<Name extends keyof V1_3_0.components['schemas']> = V1_3_0.components['schemas'][Name];
