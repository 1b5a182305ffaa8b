// The webhook allow list (local testing only): hosts or host:port pairs a webhook may target despite the
// SSRF rules of spec 6 rule 4, over plain http too. SIM_WEBHOOK_ALLOW_TARGETS gives the list at start, and
// PUT /_sim/webhooks/allow-targets replaces it at run time, so a local receiver (the conformance CLI's, in
// the simulator profile) can be allowed without a restart. Kept in memory only: a restart starts from the
// variable again, so a list set for one run cannot outlive the process that was told.

export interface AllowTargets {
  /** The list in force (read on every enqueue and every delivery attempt). */
  list(): readonly string[];
  /** Replaces the list; entries trimmed, lower-cased and de-duplicated. Returns the list now in force. */
  replace(targets: readonly string[]): readonly string[];
}

const normalized = (targets: readonly string[]) => [...new Set(targets.map((t) => t.trim().toLowerCase()).filter(Boolean))];

export function allowTargets(initial: readonly string[]): AllowTargets {
  let current: readonly string[] = Object.freeze(normalized(initial));
  return {
    list: () => current,
    replace(targets) {
      current = Object.freeze(normalized(targets));
      return current;
    },
  };
}
