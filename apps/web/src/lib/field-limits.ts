import { z } from 'zod';

// The bounds the server holds a request body to, read from the contract's own schema (the one the server
// validates with), so an input takes no more than the server accepts and the two cannot drift apart.

export interface FieldLimits {
  /** Characters, for text. */
  maxLength?: number;
  minLength?: number;
  /** Inclusive bounds, for numbers. */
  min?: number;
  max?: number;
}

interface JsonSchemaField {
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
}

const cache = new WeakMap<z.ZodType, Record<string, FieldLimits>>();

/** Each top-level field's bounds, as the body schema states them (nothing for what it does not bound). */
export function fieldLimits(schema: z.ZodType): Record<string, FieldLimits> {
  const known = cache.get(schema);
  if (known) return known;
  let properties: Record<string, JsonSchemaField> = {};
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, JsonSchemaField>;
    };
    properties = json.properties ?? {};
  } catch {
    // A schema JSON Schema cannot express bounds nothing here; the server still checks.
  }
  const limits = Object.fromEntries(
    Object.entries(properties).map(([field, p]) => [
      field,
      {
        ...(p.maxLength === undefined ? {} : { maxLength: p.maxLength }),
        ...(p.minLength === undefined ? {} : { minLength: p.minLength }),
        ...(p.minimum === undefined ? {} : { min: p.minimum }),
        ...(p.maximum === undefined ? {} : { max: p.maximum }),
      },
    ]),
  );
  cache.set(schema, limits);
  return limits;
}
