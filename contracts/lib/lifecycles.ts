// The lifecycles a contract declares: a status enum marked `x-lifecycle: <name>` is the state set of that
// state machine and `x-terminal-states` lists the states nothing leaves (contracts/CHANGE-RULES.md,
// "Lifecycle-aware rules"). The simulator's machines and the conformance suite's tables are checked against this.
import { isObject, type Json, type OpenApiDocument } from './bundle.js';

export interface ContractLifecycle {
  states: string[];
  /** Empty when the contract declares no terminal states (sima-workflow: spec 3.5 shows no transitions). */
  terminal: string[];
}

class ContractLifecycleError extends Error {}

interface Occurrence extends ContractLifecycle {
  /** JSON pointer of the marked schema inside the bundled document. */
  pointer: string;
}

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const strings = (value: Json | undefined): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
const sameSet = (a: string[], b: string[]) => new Set(a).size === new Set(b).size && b.every((s) => a.includes(s));

/** Every schema marked `x-lifecycle`, by name. The tree is walked as it is (refs not followed), so each
 *  occurrence is one place in the document. */
function occurrences(doc: OpenApiDocument): Map<string, Occurrence[]> {
  const found = new Map<string, Occurrence[]>();
  const walk = (node: Json, pointer: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    if (!isObject(node)) return;
    const name = node['x-lifecycle'];
    if (typeof name === 'string') {
      const states = strings(node.enum);
      if (!states) throw new ContractLifecycleError(`lifecycle ${name} at ${pointer} has no enum of string states`);
      const declared = node['x-terminal-states'];
      const terminal = declared === undefined ? [] : strings(declared);
      if (!terminal) throw new ContractLifecycleError(`lifecycle ${name} at ${pointer}: x-terminal-states is not a list of states`);
      const unknown = terminal.filter((s) => !states.includes(s));
      if (unknown.length) throw new ContractLifecycleError(`lifecycle ${name} at ${pointer}: terminal state ${unknown.join(', ')} is not in its enum`);
      found.set(name, [...(found.get(name) ?? []), { pointer, states, terminal }]);
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${escape(key)}`);
  };
  walk(doc, '#');
  return found;
}

/** The names of the lifecycles the document declares, sorted. */
export function contractLifecycleNames(doc: OpenApiDocument): string[] {
  return [...occurrences(doc).keys()].sort();
}

/** The states and terminal states of lifecycle `name`. Throws when the document does not declare it, or
 *  declares it in two places that disagree (as sets) on its states or terminal states. */
export function contractLifecycle(doc: OpenApiDocument, name: string): ContractLifecycle {
  const all = occurrences(doc);
  const places = all.get(name);
  if (!places) {
    throw new ContractLifecycleError(`the contract declares no lifecycle ${name} (x-lifecycle); it declares: ${[...all.keys()].sort().join(', ') || 'none'}`);
  }
  const [first, ...others] = places;
  for (const other of others) {
    for (const field of ['states', 'terminal'] as const) {
      if (!sameSet(first[field], other[field])) {
        throw new ContractLifecycleError(
          `lifecycle ${name} is declared with different ${field} at ${first.pointer} [${first[field].join(', ')}] and ${other.pointer} [${other[field].join(', ')}]`,
        );
      }
    }
  }
  return { states: [...first.states], terminal: [...first.terminal] };
}
