import { z } from 'zod';
import { parseExpression } from './expression.ts';

// Transformations: an ordered list, each an ordered list of rules. The schema checks a rule's own shape; column
// names are checked against the actual columns when the list is compiled (apply.ts).

const column = z.string().min(1).max(200);

export const filterOperators = [
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'contains',
  'startsWith',
  'in',
  'isNull',
  'notNull',
] as const;
export type FilterOperator = (typeof filterOperators)[number];

export const castTargets = ['string', 'integer', 'decimal', 'boolean', 'date', 'datetime'] as const;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const ruleSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('select'), columns: z.array(column).min(1, 'At least one column is required') }),
  z.object({ type: z.literal('rename'), from: column, to: column }),
  z.object({
    type: z.literal('mask'),
    column,
    mode: z.enum(['full', 'partial', 'hash']),
    keepFirst: z.number().int().min(0).max(100).default(0),
    keepLast: z.number().int().min(0).max(100).default(0),
    maskChar: z.string().length(1).default('*'),
    /** For hash: prefixed to the value before SHA-256, so common values cannot be looked up. */
    salt: z.string().max(200).default(''),
  }),
  z
    .object({
      type: z.literal('filter'),
      column,
      op: z.enum(filterOperators),
      value: z.union([scalar, z.array(scalar)]).optional(),
    })
    .refine((rule) => rule.op === 'isNull' || rule.op === 'notNull' || rule.value !== undefined, {
      message: 'value is required',
      path: ['value'],
    })
    .refine(
      (rule) => (rule.op === 'in') === Array.isArray(rule.value) || rule.op === 'isNull' || rule.op === 'notNull',
      {
        message: 'Invalid option',
        path: ['value'],
      },
    ),
  z.object({
    type: z.literal('sort'),
    by: z
      .array(z.object({ column, direction: z.enum(['asc', 'desc']).default('asc') }))
      .min(1, 'At least one column is required'),
  }),
  z.object({ type: z.literal('cast'), column, to: z.enum(castTargets) }),
  z.object({
    type: z.literal('format'),
    column,
    kind: z.enum(['date', 'number']),
    /** For dates: tokens YYYY MM DD HH mm ss (e.g. 'DD/MM/YYYY HH:mm'). */
    pattern: z.string().max(100).default('YYYY-MM-DD'),
    decimals: z.number().int().min(0).max(20).optional(),
    thousandsSeparator: z.string().max(1).default(''),
    decimalSeparator: z.string().length(1).default('.'),
  }),
  z.object({
    type: z.literal('computed'),
    name: column,
    expression: z
      .string()
      .min(1)
      .max(2000)
      .superRefine((text, ctx) => {
        try {
          parseExpression(text);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : 'Invalid option' });
        }
      }),
  }),
  z.object({ type: z.literal('limit'), count: z.number().int().min(0) }),
]);

export type Rule = z.output<typeof ruleSchema>;
export type RuleInput = z.input<typeof ruleSchema>;

export const transformationSchema = z.object({
  name: z.string().max(200).optional(),
  rules: z.array(ruleSchema),
});
export const transformationsSchema = z.array(transformationSchema);

export type Transformation = z.output<typeof transformationSchema>;
export type TransformationInput = z.input<typeof transformationSchema>;
