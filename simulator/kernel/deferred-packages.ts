// Packages a start does not need, loaded on first use instead (issue 30 item 4: restart to first answer;
// together they were over half of it), then warmed in the background once the sandbox answers. Loading one
// blocks the event loop for a few hundred milliseconds (module evaluation is synchronous): on first use
// under an attack right after a start, that stalled /healthz to 330 ms (issue 30 item 2, hostile bench).
// Warmed one at a time, a pause between them, so no request waits behind more than one.
//
// pdfkit stays on first use only (claim-packet.ts): few sessions render a packet, and it costs memory.
const importKoaBody = () => import('koa-body');
const importExceljs = () => import('exceljs');
let koaBody: ReturnType<typeof importKoaBody> | undefined;
let exceljs: ReturnType<typeof importExceljs> | undefined;

/** koa-body (with formidable and zod): request bodies other than large JSON (contract-routes.ts). */
export const loadKoaBody = () => (koaBody ??= importKoaBody());
/** exceljs (with unzipper and its XML parser): XLSX uploads (uploads/xlsx-rows.ts). */
export const loadExceljs = () => (exceljs ??= importExceljs());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Loads every deferred package, one after another; `pauseMs` lets the requests waiting run in between. */
export async function warmDeferredPackages(pauseMs = 50): Promise<void> {
  for (const load of [loadKoaBody, loadExceljs]) {
    await pause(pauseMs);
    await load();
  }
}
