// An MCP tool's inputSchema (JSON Schema, any draft) made acceptable to OpenAI-compatible providers:
// an object at the root with `properties`, and none of the keywords several providers reject
// (meta keywords, conditionals, content/annotation keywords). Everything else passes through.
const DROPPED = new Set([
  '$schema', '$id', '$comment', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary',
  'if', 'then', 'else', 'not', 'dependentSchemas', 'dependentRequired', 'unevaluatedProperties', 'unevaluatedItems',
  'contentEncoding', 'contentMediaType', 'contentSchema', 'readOnly', 'writeOnly', 'deprecated', 'examples',
]);
/** Keywords whose value is one schema, a list of schemas, or a map of schemas. */
const ONE = new Set(['items', 'additionalProperties', 'contains', 'propertyNames']);
const MANY = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const MAP = new Set(['properties', '$defs', 'definitions', 'patternProperties']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function clean(schema: unknown): unknown {
  if (schema === true) return {};
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (ONE.has(key)) out[key] = clean(value);
    else if (MANY.has(key) && Array.isArray(value)) out[key] = value.map(clean);
    else if (MAP.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v)]));
    else out[key] = value;
  }
  return out;
}

/** The parameters schema sent to the provider for an MCP tool. */
export function providerSchema(inputSchema: unknown): Json {
  const cleaned = clean(inputSchema);
  const root: Json = isObject(cleaned) ? cleaned : {};
  // A root that is not an object (invalid for MCP, but seen) cannot be a function's parameters.
  if (root.type !== undefined && root.type !== 'object') return { type: 'object', properties: {} };
  return { ...root, type: 'object', properties: isObject(root.properties) ? root.properties : {} };
}
