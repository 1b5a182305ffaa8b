// Lifecycle enums: an enum marked `x-lifecycle` is the state set of a state machine; its states, its terminal
// states (x-terminal-states) and the marker itself are judged by the lifecycle rules in both directions.
import type { Json, JsonObject } from '../../lib/bundle.js';
import { emit, enumValues, list, minus, type Walk } from './walk.js';

/** Compares the lifecycle of two enums; false (nothing reported) when neither side is marked `x-lifecycle`. */
export function compareLifecycle(w: Walk, path: string, bs: JsonObject, hs: JsonObject): boolean {
  const bl = typeof bs['x-lifecycle'] === 'string' ? (bs['x-lifecycle'] as string) : undefined;
  const hl = typeof hs['x-lifecycle'] === 'string' ? (hs['x-lifecycle'] as string) : undefined;
  if (!bl && !hl) return false;
  const be = enumValues(bs);
  const he = enumValues(hs);
  const machine = bl ?? hl;
  if (bl && !hl) emit(w, 'lifecycle-marker-removed', path, `the enum no longer says it is the state set of lifecycle ${bl}: its changes stop being judged as state changes.`, bl, null);
  else if (!bl && hl) emit(w, 'lifecycle-marker-added', path, `the enum is now marked as the state set of lifecycle ${hl}.`, null, hl);
  else if (bl !== hl) emit(w, 'lifecycle-machine-changed', path, `the enum now names lifecycle ${hl} instead of ${bl}.`, bl!, hl!);
  if (be && he) {
    const added = minus(he, be);
    const removed = minus(be, he);
    if (added.length) emit(w, 'lifecycle-state-added', path, `lifecycle ${machine} gains state ${list(added)}: a client's state handling meets a state it does not know.`, be, he);
    if (removed.length) emit(w, 'lifecycle-state-removed', path, `lifecycle ${machine} loses state ${list(removed)}: clients waiting for it are stranded.`, be, he);
  } else if (be && !he) {
    emit(w, 'lifecycle-state-added', path, `lifecycle ${machine} no longer enumerates its states: any state may appear.`, be, null);
  } else if (!be && he) {
    emit(w, 'lifecycle-state-removed', path, `lifecycle ${machine} is now restricted to ${list(he)}.`, null, he);
  }
  const bt = Array.isArray(bs['x-terminal-states']) ? (bs['x-terminal-states'] as Json[]) : undefined;
  const ht = Array.isArray(hs['x-terminal-states']) ? (hs['x-terminal-states'] as Json[]) : undefined;
  // Judged against what BASE declared: terminal states documented for the first time are no change a
  // client could have relied on; declared ones changed, or dropped from a lifecycle that stays, are.
  if (bt && (ht || hl)) {
    const b = bt ?? [];
    const h = ht ?? [];
    const gained = minus(h, b);
    const lost = minus(b, h);
    if (gained.length || lost.length) {
      const parts = [gained.length ? `now terminal: ${list(gained)}` : '', lost.length ? `no longer terminal: ${list(lost)}` : ''].filter(Boolean);
      emit(w, 'lifecycle-terminal-states-changed', path, `terminal states of lifecycle ${machine} changed (${parts.join('; ')}): a client polling until terminal would stop early or never.`, b, h);
    }
  }
  return true;
}
