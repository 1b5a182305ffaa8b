// Deleting what a query finds, for a domain store's purge of a tenant (DELETE /_sim/tenants/{tenantId}):
// every match is read first, in bounded pages through the index serving `where` (never a scan), then
// deleted, so that no page cursor walks a collection that is shrinking under it.
import type { Collection, StoredRecord, Where } from './collection.js';

const PAGE = 1000;

/** Every record matching `where`, in the serving index's order. */
export async function allMatching<T extends StoredRecord, F extends string>(collection: Collection<T, F>, where: Where<F>): Promise<T[]> {
  const found: T[] = [];
  let after: string | null = null;
  do {
    const page = await collection.query({ where, limit: PAGE, after });
    found.push(...page.items);
    after = page.nextCursor;
  } while (after);
  return found;
}

/** Deletes the records with these ids; answers how many were there. */
export async function deleteIds(collection: Pick<Collection<StoredRecord, string>, 'delete'>, ids: Iterable<string>): Promise<number> {
  let removed = 0;
  for (const id of ids) if (await collection.delete(id)) removed++;
  return removed;
}

/** Deletes every record matching `where`; answers how many went. */
export async function deleteMatching<T extends StoredRecord, F extends string>(collection: Collection<T, F>, where: Where<F>): Promise<number> {
  return deleteIds(collection, (await allMatching(collection, where)).map((record) => record.id));
}
