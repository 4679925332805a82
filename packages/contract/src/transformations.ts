import { z } from 'zod';
import { parseExpression } from './expression.ts';
import { messages } from './messages.ts';

// Transformations: an ordered list, each an ordered list of rules. One schema for the portal's editor, the
// server's checks (the /api calls' request validation and the engine's) and /api/docs. It checks a rule's own
// shape; column names are checked against the actual columns when the engine compiles the list.

const column = z.string().min(1).max(200);
const atLeastOneColumn = messages.atLeastOne('column');

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
export const maskModes = ['full', 'partial', 'hash'] as const;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const selectRule = z.object({ type: z.literal('select'), columns: z.array(column).min(1, atLeastOneColumn) });

const renameRule = z.object({ type: z.literal('rename'), from: column, to: column });

const maskRule = z.object({
  type: z.literal('mask'),
  column,
  mode: z.enum(maskModes),
  keepFirst: z.number().int().min(0).max(100).default(0),
  keepLast: z.number().int().min(0).max(100).default(0),
  maskChar: z.string().length(1).default('*'),
  /** For hash: prefixed to the value before SHA-256, so common values cannot be looked up. */
  salt: z.string().max(200).default(''),
});

const filterRule = z
  .object({
    type: z.literal('filter'),
    column,
    op: z.enum(filterOperators),
    value: z.union([scalar, z.array(scalar)]).optional(),
  })
  .refine((rule) => rule.op === 'isNull' || rule.op === 'notNull' || rule.value !== undefined, {
    message: messages.required('value'),
    path: ['value'],
  })
  .refine((rule) => (rule.op === 'in') === Array.isArray(rule.value) || rule.op === 'isNull' || rule.op === 'notNull', {
    message: messages.invalidOption,
    path: ['value'],
  });

const sortRule = z.object({
  type: z.literal('sort'),
  by: z.array(z.object({ column, direction: z.enum(['asc', 'desc']).default('asc') })).min(1, atLeastOneColumn),
});

const castRule = z.object({ type: z.literal('cast'), column, to: z.enum(castTargets) });

const formatRule = z.object({
  type: z.literal('format'),
  column,
  kind: z.enum(['date', 'number']),
  /** For dates: tokens YYYY MM DD HH mm ss (e.g. 'DD/MM/YYYY HH:mm'). */
  pattern: z.string().max(100).default('YYYY-MM-DD'),
  decimals: z.number().int().min(0).max(20).optional(),
  thousandsSeparator: z.string().max(1).default(''),
  decimalSeparator: z.string().length(1).default('.'),
});

const computedRule = z.object({
  type: z.literal('computed'),
  name: column,
  /** The computed-column language (expression.ts); a syntax error is refused with the parser's message. */
  expression: z
    .string()
    .min(1)
    .max(2000)
    .superRefine((text, ctx) => {
      try {
        parseExpression(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : messages.invalidOption });
      }
    }),
});

const limitRule = z.object({ type: z.literal('limit'), count: z.number().int().min(0) });

export const ruleSchema = z.discriminatedUnion('type', [
  selectRule,
  renameRule,
  maskRule,
  filterRule,
  sortRule,
  castRule,
  formatRule,
  computedRule,
  limitRule,
]);

export type Rule = z.output<typeof ruleSchema>;
export type RuleInput = z.input<typeof ruleSchema>;
export type RuleType = Rule['type'];
export const ruleTypes = ruleSchema.options.map((option) => option.shape.type.value);

export const transformationSchema = z.object({
  name: z.string().max(200).optional(),
  rules: z.array(ruleSchema),
});
export const transformationsSchema = z.array(transformationSchema);

export type Transformation = z.output<typeof transformationSchema>;
export type TransformationInput = z.input<typeof transformationSchema>;

/** A rule as stored and answered: its id and its place in the transformation (each kind keeps its own checks). */
const stored = { id: z.number().int(), position: z.number().int() };
export const storedRuleSchema = z.discriminatedUnion('type', [
  selectRule.extend(stored),
  renameRule.extend(stored),
  maskRule.extend(stored),
  filterRule.safeExtend(stored),
  sortRule.extend(stored),
  castRule.extend(stored),
  formatRule.extend(stored),
  computedRule.extend(stored),
  limitRule.extend(stored),
]);
export type StoredRule = z.output<typeof storedRuleSchema>;
