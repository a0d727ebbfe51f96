// What an item of a batch body looks like, read from the committed openapi.json (generated
// from the route schemas), so the CLI learns a field's type from the one source instead of
// keeping its own list: a CSV cell becomes a number where the API takes a number.
import fs from 'node:fs';

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

let document: { paths: Record<string, any>; components?: { schemas?: Record<string, JsonSchema> } } | undefined;

function openapi() {
  document ??= JSON.parse(fs.readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
  return document!;
}

function resolve(schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = openapi().components?.schemas?.[name];
  if (!target) throw new Error(`openapi.json has no schema ${schema.$ref}`);
  return resolve(target);
}

/** The schema itself and, for anyOf/oneOf, each alternative (one level, refs resolved). */
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

/** The schema of one item of the array at `node` of the endpoint's request body. */
export function itemSchema(endpoint: string, node: string[]): JsonSchema {
  let schema: JsonSchema | undefined = openapi().paths[endpoint]?.post?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`openapi.json has no request body for POST ${endpoint}`);
  for (const name of node) {
    schema = property(schema, name);
    if (!schema) throw new Error(`POST ${endpoint} has no body node ${node.join('.')}`);
  }
  const array = alternatives(schema).find((s) => s.items);
  if (!array?.items) throw new Error(`POST ${endpoint} body node ${node.join('.')} is not a list`);
  return array.items;
}
