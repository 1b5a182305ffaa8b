// Structural checks of a bundled contract that swagger-parser does not make: every schema compiles in
// ajv strict mode, every response has an example, and every example is valid against its schema.
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './bundle.js';
import { deref, listOperations } from './operations.js';
import { createContractSchemas, formatAjvErrors, type ContractSchemas } from './schemas.js';

export interface ContractProblem {
  where: string;
  message: string;
}

export function checkContractDocument(doc: OpenApiDocument): ContractProblem[] {
  const problems: ContractProblem[] = [];
  let schemas: ContractSchemas;
  try {
    schemas = createContractSchemas(doc);
  } catch (error) {
    return [{ where: 'components.schemas', message: (error as Error).message }];
  }
  const compile = (where: string, schema: Json) => {
    try {
      return schemas.validator(schema);
    } catch (error) {
      problems.push({ where, message: `schema does not compile: ${(error as Error).message}` });
      return undefined;
    }
  };
  const checkExample = (where: string, schema: Json, example: Json) => {
    const validate = compile(where, schema);
    if (validate && !validate(example)) problems.push({ where, message: `example invalid: ${formatAjvErrors(validate.errors)}` });
  };
  const examplesOf = (holder: JsonObject): Array<[string, Json]> => {
    const found: Array<[string, Json]> = [];
    if ('example' in holder) found.push(['example', holder.example]);
    if (isObject(holder.examples)) {
      for (const [name, entry] of Object.entries(holder.examples)) {
        const resolved = deref(doc, entry);
        if (isObject(resolved) && 'value' in resolved) found.push([`examples.${name}`, resolved.value]);
      }
    }
    return found;
  };

  // Ajv still honours OpenAPI 3.0's `nullable`, so a 3.0 leftover would validate silently; 3.1 spells it
  // `type: [T, "null"]`.
  for (const where of findKeyword(doc, 'nullable')) problems.push({ where, message: 'nullable is OpenAPI 3.0; use type: [T, "null"]' });

  const componentSchemas = isObject(doc.components.schemas) ? doc.components.schemas : {};
  for (const [name, schema] of Object.entries(componentSchemas)) {
    const where = `components.schemas.${name}`;
    try {
      schemas.component(name);
    } catch (error) {
      problems.push({ where, message: `schema does not compile: ${(error as Error).message}` });
      continue;
    }
    if (isObject(schema) && 'example' in schema) checkExample(`${where}.example`, schema, schema.example);
  }

  for (const kind of ['parameters', 'headers'] as const) {
    const entries = isObject(doc.components[kind]) ? (doc.components[kind] as JsonObject) : {};
    for (const [name, entry] of Object.entries(entries)) {
      if (isObject(entry) && 'example' in entry && entry.schema) {
        checkExample(`components.${kind}.${name}.example`, entry.schema, entry.example);
      }
    }
  }

  for (const op of listOperations(doc, ['paths', 'webhooks'])) {
    const at = `${op.operationId} (${op.method.toUpperCase()} ${op.path})`;
    for (const raw of op.parameters) {
      const param = deref(doc, raw);
      if (isObject(param) && param.schema) {
        compile(`${at} parameter ${String(param.name)}`, param.schema);
        for (const [label, value] of examplesOf(param)) checkExample(`${at} parameter ${String(param.name)} ${label}`, param.schema, value);
      }
    }
    const body = deref(doc, op.operation.requestBody ?? null);
    if (isObject(body) && isObject(body.content)) {
      for (const [mediaType, media] of Object.entries(body.content)) {
        if (!isObject(media) || !media.schema) continue;
        compile(`${at} requestBody ${mediaType}`, media.schema);
        for (const [label, value] of examplesOf(media)) checkExample(`${at} requestBody ${mediaType} ${label}`, media.schema, value);
      }
    }
    const responses = isObject(op.operation.responses) ? op.operation.responses : {};
    for (const [status, raw] of Object.entries(responses)) {
      const response = deref(doc, raw);
      if (!isObject(response) || !isObject(response.content)) continue;
      for (const [mediaType, media] of Object.entries(response.content)) {
        const where = `${at} response ${status} ${mediaType}`;
        if (!isObject(media) || !media.schema) {
          problems.push({ where, message: 'response content has no schema' });
          continue;
        }
        compile(where, media.schema);
        const examples = examplesOf(media);
        const schemaExample = deref(doc, media.schema);
        if (examples.length === 0 && isObject(schemaExample) && 'example' in schemaExample) {
          examples.push(['schema example', schemaExample.example]);
        }
        if (examples.length === 0) problems.push({ where, message: 'response has no example' });
        for (const [label, value] of examples) checkExample(`${where} ${label}`, media.schema, value);
      }
    }
  }
  return problems;
}

/** Paths (dotted) of every object that has `keyword` as a key inside a schema. */
function findKeyword(node: Json, keyword: string, at = '', inSchema = false, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item, i) => findKeyword(item, keyword, `${at}[${i}]`, inSchema, found));
  else if (isObject(node)) {
    if (inSchema && keyword in node) found.push(at);
    for (const [key, value] of Object.entries(node)) {
      findKeyword(value, keyword, at ? `${at}.${key}` : key, inSchema || key === 'schema' || key === 'schemas', found);
    }
  }
  return found;
}
