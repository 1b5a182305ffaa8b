// Following a `$ref` in a document held in memory, with @apidevtools/json-schema-ref-parser (the resolver
// swagger-parser itself uses) rather than a walk of our own: a bundle made by swagger-parser points into any
// part of the document (`#/paths/~1api~1upload/post/...`), through arrays (`allOf/1`), with `~0`/`~1` and
// percent escapes (`%7BsessionId%7D`), and sometimes through a `$ref` met on the way. Both sides of a
// comparison are resolved here, the same way: a reference this document cannot answer (another file, a URL,
// a missing pointer) stays unresolved on either side and is compared by its text.
import { $Refs } from '@apidevtools/json-schema-ref-parser';
import { isObject, type Json, type OpenApiDocument } from './bundle.js';

// The library's public resolve() is asynchronous (it may read files); the gate is synchronous and its documents
// are already loaded, so each one is registered as the root of a $Refs map by hand (once per document).
const ROOT = '/contract.json';
const registries = new WeakMap<OpenApiDocument, $Refs>();

function registry(doc: OpenApiDocument): $Refs {
  let refs = registries.get(doc);
  if (!refs) {
    refs = new $Refs();
    refs._add(ROOT).value = doc;
    registries.set(doc, refs);
  }
  return refs;
}

/**
 * The node `ref` points to in `doc`, or undefined when `doc` cannot answer it. A `$ref` met on the way, or at
 * the target, is followed too (a reference to a reference is the referenced node); a cycle of references
 * stops at the `$ref` that closes it.
 */
export function resolveRef(doc: OpenApiDocument, ref: string): Json | undefined {
  try {
    return registry(doc).get(ref) as Json | undefined;
  } catch {
    return undefined; // another file or URL, or a pointer to nothing: unresolved here
  }
}

/** `node` with its `$ref` followed: the node itself when it is no reference or points outside `doc`, null when
 *  it points to nothing inside `doc` (a dangling local pointer, as if the node were absent). */
export function deref(doc: OpenApiDocument, node: Json): Json {
  if (!isObject(node) || typeof node.$ref !== 'string') return node;
  const target = resolveRef(doc, node.$ref);
  if (target !== undefined) return target;
  return node.$ref.startsWith('#') ? null : node;
}
