import { z } from 'zod';

// product §3 through the contract: a reply is decoded with the call's response schema, whose codecs
// (isoDateTime) turn the wire's ISO date-time text into Dates. Nothing else is revived or restored.

export type ParsedReply<S extends z.ZodType> =
  { success: true; data: z.output<S> } | { success: false; error: unknown };

/** Decodes a reply's text (JSON, '' for none) from its wire form with the call's response schema. */
export function parseReply<S extends z.ZodType>(schema: S, text: string): ParsedReply<S> {
  let wire: z.input<S>;
  try {
    wire = text === '' ? undefined : JSON.parse(text);
  } catch (error) {
    return { success: false, error };
  }
  const decoded = z.safeDecode(schema, wire);
  return decoded.success ? { success: true, data: decoded.data } : { success: false, error: decoded.error };
}
