import { z } from 'zod';
import { messages } from './messages.ts';
import { cycleMessage, dependencyCycle } from './parameter-dependencies.ts';
import { patternProblem } from './patterns.ts';

export { DEFAULT_STRING_MAX_LENGTH } from './patterns.ts';

// A data asset's parameter definitions: one schema for the portal's form, the server's checks (the /api calls'
// request validation and the engine's) and both OpenAPI documents (/api/docs shows the definition itself; the
// calling layer's renders the values it takes, packages/engine/src/parameters/openapi.ts). Values are checked by
// the engine's validateParameters.

export const parameterTypes = ['string', 'integer', 'decimal', 'boolean', 'date', 'date-time'] as const;
export type ParameterType = (typeof parameterTypes)[number];

const limit = z.union([z.number(), z.string().min(1)]);

export const fixedOptionSchema = z.object({
  value: z.union([z.string(), z.number(), z.boolean()]),
  label: z.string().optional(),
});

/** Allowed values: a fixed list, or a reference to a parameter data source (the server runs it). */
export const allowedValuesSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), options: z.array(fixedOptionSchema).min(1) }),
  z.object({
    kind: z.literal('dataSource'),
    dataSourceId: z.union([z.string().min(1), z.number().int()]),
    valueColumn: z.string().min(1),
    labelColumn: z.string().min(1),
    /** Other parameters whose values the parameter data source takes (dependent dropdowns). */
    dependsOn: z.array(z.string()).default([]),
  }),
]);
export type AllowedValues = z.output<typeof allowedValuesSchema>;

export const parameterDefinitionSchema = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, messages.invalidOption)
    .max(63),
  label: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  type: z.enum(parameterTypes, { error: (issue) => messages.unsupportedType(String(issue.input)) }),
  /** A list of values of `type`. */
  list: z.boolean().default(false),
  required: z.boolean().default(false),
  default: z.unknown().optional(),
  /**
   * For numbers and dates: the value's bounds; for strings: the length's, in characters (code points; `max`
   * defaults to DEFAULT_STRING_MAX_LENGTH). Inclusive.
   */
  min: limit.optional(),
  max: limit.optional(),
  /**
   * For strings: a regular expression the whole value must match, in RE2 syntax (no backreferences or lookarounds),
   * matched in linear time; at most MAX_PATTERN_LENGTH characters and MAX_PATTERN_PROGRAM_SIZE instructions
   * (patterns.ts).
   */
  pattern: z
    .string()
    .superRefine((pattern, ctx) => {
      const problem = patternProblem(pattern);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  allowedValues: allowedValuesSchema.optional(),
});

export type ParameterDefinition = z.output<typeof parameterDefinitionSchema>;
export type ParameterDefinitionInput = z.input<typeof parameterDefinitionSchema>;

/** The definitions of one data source: names must be unique, dependencies must exist and not loop. */
export const parameterDefinitionsSchema = z.array(parameterDefinitionSchema).superRefine((defs, ctx) => {
  const names = new Set<string>();
  defs.forEach((def, index) => {
    if (names.has(def.name)) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'name'],
        message: messages.alreadyExistsNamed('Parameter', def.name),
      });
    }
    names.add(def.name);
  });
  defs.forEach((def, index) => {
    if (def.allowedValues?.kind !== 'dataSource') return;
    for (const parent of def.allowedValues.dependsOn) {
      if (!names.has(parent) || parent === def.name) {
        ctx.addIssue({ code: 'custom', path: [index, 'allowedValues', 'dependsOn'], message: messages.invalidOption });
      }
    }
  });
  const cycle = dependencyCycle(defs);
  if (cycle) {
    const index = defs.findIndex((def) => def.name === cycle[0]);
    ctx.addIssue({ code: 'custom', path: [index, 'allowedValues', 'dependsOn'], message: cycleMessage(cycle) });
  }
});

/**
 * A definition as read back from the store: its pattern is not compiled here, so a stored pattern RE2 cannot run
 * (saved when patterns were JavaScript syntax) still loads, is shown and answered; only its values are refused, with
 * a message saying why (the engine's validateParameters), and a save must give a pattern that compiles.
 */
export const storedParameterDefinitionSchema = parameterDefinitionSchema.extend({ pattern: z.string().optional() });

/** A definition as stored and answered: its id and its place in the asset's list. */
export const storedParameterSchema = storedParameterDefinitionSchema.extend({
  id: z.number().int(),
  position: z.number().int(),
});
export type StoredParameter = z.output<typeof storedParameterSchema>;
