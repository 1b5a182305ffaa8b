// What a start does without, loaded on first use instead (issue 30 item 4: restart to first answer; the
// two packages were nearly half of it: spawn to /healthz 1.5-1.7 s, 0.8 s without them), then warmed in the
// background once the sandbox answers. Each load blocks the event loop for a hundred milliseconds or more
// (module evaluation and source-map parsing are synchronous): on first use under an attack right after a
// start, that stalled /healthz to 330 ms (issue 30 item 2, hostile bench). Warmed one at a time, a pause
// between them, so no request waits behind more than one.
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

/**
 * The first stack trace a process formats: with source maps on (scripts/start.mjs), Node parses the whole
 * bundle's map then, ~100 ms. Node's streams read `error.stack` of every error they carry, so without this
 * the first refused body (the JSON shape guard's error) paid it in the middle of the hostile bench's burst.
 */
const formatFirstStack = () => {
  void new Error('warming the source map').stack;
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Loads everything deferred, one after another; `pauseMs` lets the requests waiting run in between. */
export async function warmDeferredLoads(pauseMs = 50): Promise<void> {
  for (const load of [loadKoaBody, loadExceljs, formatFirstStack]) {
    await pause(pauseMs);
    await load();
  }
}
