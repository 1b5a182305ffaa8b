// The feed normalization job (job type catalog_upload, variant trade_feed_normalize; spec 3.2, 4.4): moves
// the session UPLOADED -> NORMALIZING, streams the uploaded file's rows through the normalizer rules
// (feed-normalize.rules.ts), stores every normalized SKU and every issue, then ends the session:
//   - any blocking issue, or a non-blocking one to acknowledge   -> PREVIEW_BLOCKED (applyable false)
//   - no issue and no SKU left to classify (all carry providedHs) -> PREVIEW_BLOCKED, applyable, no issues:
//     nothing to preview, the direct-apply shortcut (spec 3.2, 4.4)
//   - no issue, SKUs to classify                                  -> READY
// A file that cannot be read (no header, no SKU column, no rows, broken) fails the session: FAILED with the
// reason on the session and as a blocking issue, and the job fails with the same message.
// The job's verdict is written in the move that ends the session (`settledBy`): run again after a restart
// that came between that move and the job's end, the job ends with it instead of being refused by a
// session already READY (issue 30 item 3).
import { COUNTRY_CODES } from '#fixtures/trade/countries.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { internedRecords, internedValues } from '../../kernel/uploads/interned-values.js';
import { labelsFound, readTableRows, skippedRowLog } from '../../kernel/uploads/table-processor.js';
import { earlierVerdict, settledBy, type JobOutcome, type JobProcessor } from '../jobs/index.js';
import { feedIssueId, feedSkuId, type FeedRowsStore } from './feed-rows.store.js';
import type { FeedSessionStore } from './feed-session.store.js';
import type { FeedSessionAction } from './feed-session.machine.js';
import { feedSessionMover } from './feed-session.move.js';
import { countryRule, duplicateRule, feedColumnOf, headerIssues, hsRule, productNameRule, rowFingerprint, skuRule, type FeedColumn, type FeedDefaults, type RowIssue } from './feed-normalize.rules.js';
import { factsOf } from './feed-session.response.js';
import { TRADE_HOOKS } from './trade.hooks.js';
import type { FeedNormalizeInput, FeedSessionRecord } from './trade.types.js';

/** Rows between store flushes: a 50 MB feed's writes go to the journal as it streams, not all at the end. */
const FLUSH_ROWS = 2000;
/** The attributes of a row with none: one frozen object shared by every such SKU, not one each. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

export function feedNormalizeProcessor(deps: KernelDeps, sessions: FeedSessionStore, rows: FeedRowsStore): JobProcessor {
  const moveSession = feedSessionMover(deps, sessions);
  /**
   * Moves the session by the table in force, setting `set` with it; the guards and computed targets read the
   * session as the move leaves it (a finish reads the counts it records). A refused move throws 409, which
   * fails the job: it should not happen.
   */
  const move = (tenantId: string, sessionId: string, action: FeedSessionAction, set: Partial<FeedSessionRecord>) =>
    moveSession({ tenantId, sessionId, action, facts: (s) => factsOf({ ...s, ...set }), changes: () => set });

  return async (job, context): Promise<JobOutcome> => {
    const { sessionId, file } = job.input as FeedNormalizeInput;
    const session = await sessions.get(job.tenantId, sessionId);
    if (!session) throw new Error(`trade feed session ${sessionId} no longer exists`);
    // This job already ended the session before a restart: its verdict is on the session.
    const earlier = earlierVerdict(session, job.id);
    if (earlier) return earlier;
    // A restart finds the session NORMALIZING: the run starts again and rewrites the same records.
    await move(job.tenantId, sessionId, session.status === 'NORMALIZING' ? 'resume' : 'normalize', { normalizationProgress: 0 });

    let seq = 0;
    const counts = { issues: 0, blocking: 0, open: 0, skus: 0, unclassified: 0, rows: 0, skipped: 0, duplicates: 0 };
    const byType: Record<string, number> = {};
    const skipped = skippedRowLog();
    const record = async (found: RowIssue, rowNumber: number | null) => {
      seq += 1;
      counts.issues += 1;
      if (found.isBlocking) counts.blocking += 1;
      else counts.open += 1;
      byType[found.issueType] = (byType[found.issueType] ?? 0) + 1;
      // The key is minted here once: every surface (the issue page, acknowledgement) reads the stored one.
      const issueKey = deps.defects.at(TRADE_HOOKS.issueKey, found.issueKey);
      await rows.putIssue({ id: feedIssueId(sessionId, issueKey), sessionId, seq, ...found, issueKey, rowNumber, acknowledged: false, acknowledgedAt: null });
    };

    try {
      const columns = new Set<string>();
      let defaults: FeedDefaults | undefined;
      // The first row of a SKU, for the duplicate rule. A stored SKU is its own record (row number and
      // data); only refused rows, which store nothing, are remembered here. A 50 MB feed has over 600,000
      // SKUs: a map entry, a fingerprint and an object for each would cost over 100 MB (issue 15). After a
      // restart the previous run's record of a SKU is found too: it names the same first row of the same
      // file, so a row is a duplicate exactly when that row comes before it.
      const refused = new Map<string, { line: number; fingerprint: string }>();
      const firstOf = async (sku: string, line: number): Promise<{ line: number; fingerprint: string } | undefined> => {
        const first = refused.get(sku);
        if (first) return first;
        const stored = await rows.getSku(sessionId, sku);
        return stored && stored.rowNumber < line ? { line: stored.rowNumber, fingerprint: rowFingerprint(stored) } : undefined;
      };
      // Countries, HS codes and extra columns repeat across a feed: one string or object per value.
      const interned = internedValues();
      const extras = internedRecords();
      let lastReported = 0;
      const noContent = 'send a header row (sku, productName, hsCode, originCountry, destinationCountry) and one row per SKU';
      await readTableRows(file, { noContent }, {
        header: async (event) => {
          for (const key of event.keys) if (key !== '') columns.add(feedColumnOf(key) ?? key);
          if (!columns.has('sku')) throw new Error(`${file.fileName} has no SKU column in its first non-empty row (found: ${labelsFound(event, 200)})`);
          for (const found of headerIssues(event.keys, event.labels)) await record(found, null);
          defaults = { originCountry: session.originCountry, defaultDestinationCountry: session.defaultDestinationCountry, hasDestinationColumn: columns.has('destinationCountry'), countries: COUNTRY_CODES };
        },
        row: async (event, count) => {
          counts.rows = count;
          if (counts.rows % FLUSH_ROWS === 0) await deps.store.flush();
          const line = event.line;
          const values = rowValues(event.values);
          const sku = skuRule(values.sku ?? '', line);
          const name = productNameRule(values.productName ?? '', line);
          const hs = hsRule(values.providedHs ?? '', line);
          // spec 4.4: the upload's countries are feed-level defaults; a row's own column overrides them.
          const rowCountry = (field: 'originCountry' | 'destinationCountry') => {
            const found = countryRule(field, values[field] ?? '', line, defaults!);
            return { ...found, country: deps.defects.at(TRADE_HOOKS.rowCountry, found.country, { field, defaults: defaults! }) };
          };
          const origin = rowCountry('originCountry');
          const destination = rowCountry('destinationCountry');
          const issues = [...sku.issues, ...name.issues, ...hs.issues, ...origin.issues, ...destination.issues];
          const fingerprint = rowFingerprint({ productName: name.productName, providedHs: hs.providedHs, originCountry: origin.country, destinationCountry: destination.country });
          const first = sku.sku ? await firstOf(sku.sku, line) : undefined;
          if (sku.sku && first) {
            const duplicate = duplicateRule(sku.sku, line, first, fingerprint);
            await record(duplicate, line);
            counts.duplicates += 1;
            return;
          }
          for (const found of issues) await record(found, line);
          if (!sku.sku || issues.some((i) => i.isBlocking)) {
            counts.skipped += 1;
            skipped.name({ row: line, reasons: issues.filter((i) => i.isBlocking).map((i) => i.issueType) });
            if (sku.sku) refused.set(sku.sku, { line, fingerprint });
            return;
          }
          counts.skus += 1;
          if (hs.providedHs === null) counts.unclassified += 1;
          await rows.putSku({
            id: feedSkuId(sessionId, sku.sku),
            sessionId,
            rowNumber: line,
            sku: sku.sku,
            productName: name.productName!,
            providedHs: interned.of(hs.providedHs),
            originCountry: interned.of(origin.country!),
            destinationCountry: interned.of(destination.country!),
            attributes: Object.keys(values.attributes).length ? (extras.of(values.attributes) as Record<string, string>) : NO_ATTRIBUTES,
          });
          const percent = Math.floor(event.fraction * 100);
          if (percent >= lastReported + 5) {
            lastReported = percent;
            await context.progress(percent);
            await sessions.modify(sessionId, (s) => (s.status === 'NORMALIZING' ? { ...s, normalizationProgress: Math.min(99, percent) } : undefined));
          }
        },
      });
    } catch (error) {
      const reason = String((error as Error).message);
      await record({ issueKey: 'file_unreadable:file', issueType: 'file_unreadable', isBlocking: true, field: 'file', message: reason }, null);
      await move(job.tenantId, sessionId, 'fail', { settledBy: settledBy(job.id, { ok: false, error: reason }), failureReason: reason, issueCount: counts.issues, blockingIssueCount: counts.blocking, openIssueCount: counts.open, skuCount: counts.skus, unclassifiedCount: counts.unclassified });
      throw new Error(reason);
    }

    const blocked = counts.blocking > 0 || counts.open > 0 || counts.unclassified === 0;
    const action = blocked ? 'finish_blocked' : 'finish_clean';
    // The outcome names the status the move lands on (the table in force decides it): computed with the
    // move, from the session as it stands, so the verdict stored with it is the one the job reports.
    const outcomeAt = (sessionStatus: string): JobOutcome => ({
      result: { sessionId, sessionStatus, skuCount: counts.skus, issueCount: counts.issues, blockingIssueCount: counts.blocking, skusWithoutHs: counts.unclassified, issuesByType: byType },
      reconciliation: { rowsUploaded: counts.rows, rowsSkipped: counts.skipped, rowsDeduplicated: counts.duplicates, skusFound: counts.skus, skusScreened: 0, skusNotApplicable: 0 },
      skippedRows: { counts: Object.fromEntries(Object.entries(byType).filter(([type]) => BLOCKING_ROW_TYPES.has(type))), sample: skipped.rows.sample },
      warnings: counts.open ? { nonBlockingIssues: counts.open } : null,
    });
    const finished = {
      normalizationProgress: 100,
      skuCount: counts.skus,
      issueCount: counts.issues,
      blockingIssueCount: counts.blocking,
      openIssueCount: counts.open,
      unclassifiedCount: counts.unclassified,
    };
    const done = await moveSession({
      tenantId: job.tenantId,
      sessionId,
      action,
      facts: (s) => factsOf({ ...s, ...finished }),
      changes: (_s, to) => ({ ...finished, settledBy: settledBy(job.id, { ok: true, outcome: outcomeAt(to) }) }),
    });
    return outcomeAt(done.status);
  };
}

const BLOCKING_ROW_TYPES = new Set(['missing_sku', 'sku_too_long', 'missing_product_name', 'invalid_hs_code', 'invalid_country', 'duplicate_sku']);

/** A row's values by column (the first column of each name), and every other named column as an attribute. */
function rowValues(values: Record<string, string>) {
  const out: Partial<Record<FeedColumn, string>> & { attributes: Record<string, string> } = { attributes: {} };
  for (const [key, value] of Object.entries(values)) {
    const column = feedColumnOf(key);
    if (column) {
      if (out[column] === undefined) out[column] = value;
    } else if (value.trim() !== '') out.attributes[key] = value.trim();
  }
  return out;
}

