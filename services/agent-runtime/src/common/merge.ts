type Json = Record<string, unknown>;

/** Shallow merge of objects, skipping null/undefined layers. */
export function mergeObjects(...layers: (Json | null | undefined)[]): Json {
  return Object.assign({}, ...layers.filter(Boolean));
}

/** Merges run configs: top-level keys replaced, `configurable` and `metadata` merged one level. */
export function mergeConfigs(...layers: (Json | null | undefined)[]): Json {
  const result: Json = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if ((key === "configurable" || key === "metadata") && value && typeof value === "object") {
        result[key] = { ...((result[key] as Json) ?? {}), ...(value as Json) };
      } else {
        result[key] = value;
      }
    }
  }
  return result;
}

export function asObject(value: unknown): Json {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}
