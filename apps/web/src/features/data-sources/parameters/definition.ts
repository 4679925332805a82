import { z } from 'zod';
import type { storedParameter } from '@datalab/contract/api/data-sources';

// The form's reading of a stored parameter definition (the engine's schema, passed through the contract as an
// open object). Only what the form needs is read; anything else the engine adds later is ignored, not refused.

const option = z.object({ value: z.union([z.string(), z.number(), z.boolean()]), label: z.string().optional() });

const allowedValues = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), options: z.array(option) }),
  z.object({ kind: z.literal('dataSource'), dependsOn: z.array(z.string()).default([]) }).loose(),
]);

export const formParameter = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string().optional(),
  description: z.string().optional(),
  type: z.enum(['string', 'integer', 'decimal', 'boolean', 'date', 'date-time']),
  list: z.boolean().default(false),
  required: z.boolean().default(false),
  default: z.unknown().optional(),
  min: z.union([z.number(), z.string()]).optional(),
  max: z.union([z.number(), z.string()]).optional(),
  pattern: z.string().optional(),
  allowedValues: allowedValues.optional(),
});
export type FormParameter = z.infer<typeof formParameter>;

/** The definitions the form can show, in order; one it cannot read is left out rather than breaking the page. */
export function readParameters(stored: readonly z.infer<typeof storedParameter>[]): FormParameter[] {
  return [...stored]
    .sort((a, b) => a.position - b.position)
    .flatMap((item) => {
      const parsed = formParameter.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
}

export const parameterLabel = (parameter: FormParameter) => parameter.label ?? parameter.name;

export function parentsOf(parameter: FormParameter): string[] {
  return parameter.allowedValues?.kind === 'dataSource' ? parameter.allowedValues.dependsOn : [];
}
