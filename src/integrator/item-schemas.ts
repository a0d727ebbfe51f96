// What an item of a batch body looks like, read from the batch kind's own declared body
// schema (defineBatchKind, src/batch-kinds.ts: the TypeBox schema the route validates with
// and openapi.json is generated from), so the import learns a field's type from the one
// source instead of keeping its own list: a CSV cell becomes a number where the API takes
// a number. Shared by the CLI and the service's file imports (src/modules/imports).

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  required?: string[];
  description?: string;
}

function resolve(schema: JsonSchema): JsonSchema {
  // The declarations are plain JSON Schema, written inline (a named shape is a $ref only in openapi.json).
  if (schema.$ref) throw new Error(`a batch body schema refers to ${schema.$ref}; declare it inline`);
  return schema;
}

/** The schema itself and, for anyOf/oneOf, each alternative (one level). */
export function alternatives(schema: JsonSchema): JsonSchema[] {
  const s = resolve(schema);
  const branches = s.anyOf ?? s.oneOf;
  return branches ? branches.map(resolve) : [s];
}

/** The schema of `name` in an object schema (or in whichever alternative has it). */
export function property(schema: JsonSchema, name: string): JsonSchema | undefined {
  for (const alt of alternatives(schema)) {
    const found = alt.properties?.[name];
    if (found) return found;
  }
  return undefined;
}

/** The JSON types a value of this schema may have, `null` left out. */
export function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  for (const alt of alternatives(schema)) for (const t of [alt.type ?? []].flat()) if (t !== 'null') types.add(t);
  return types;
}

/** The schema of one item of the array at `node` of a request body schema (a batch kind's `body`). */
export function itemSchema(body: JsonSchema, node: string[]): JsonSchema {
  let schema: JsonSchema | undefined = body;
  for (const name of node) {
    schema = property(schema, name);
    if (!schema) throw new Error(`the body has no node ${node.join('.')}`);
  }
  const array = alternatives(schema).find((s) => s.items);
  if (!array?.items) throw new Error(`body node ${node.join('.')} is not a list`);
  return array.items;
}
