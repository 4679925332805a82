import type { ErrorsMap } from '@datalab/contract/errors';
import { messages } from '@datalab/contract/messages';
import type { z } from 'zod';

// Turns zod issues into the errors map of product §16, worded with product §5's templates.

/** 'pageSize' → 'Page size'; the field name as a person reads it. */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A message a schema already words with a product §5 template (the contract's parameter and rule schemas do: 'Unsupported
 * type money', 'Parameter with name a already exists', 'At least one column is required') is kept as it is.
 */
const TEMPLATED = /^Unsupported type |already exists$|is required$|must be all present or all not present$/;
/** Fixed texts a schema may give an issue: kept as they are too. */
const FIXED: ReadonlySet<string> = new Set([messages.unsupportedDataAssetType, messages.noUidProvided]);

function messageFor(issue: z.core.$ZodIssue, label: string): string {
  if (TEMPLATED.test(issue.message) || FIXED.has(issue.message)) return issue.message;
  if (issue.code === 'invalid_type' && issue.input === undefined) return messages.required(label);
  if (issue.code === 'invalid_value') return messages.invalidOption;
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) return messages.required(label);
  if (issue.code === 'too_small' && issue.origin === 'array' && issue.minimum === 1) return messages.atLeastOne(label);
  return issue.message;
}

export function errorsFromIssues(issues: readonly z.core.$ZodIssue[], prefix?: string): ErrorsMap {
  const errors: ErrorsMap = {};
  for (const issue of issues) {
    const path = issue.path.map(String);
    const key = [prefix, ...path].filter(Boolean).join('.') || prefix || 'body';
    const label = fieldLabel(path.at(-1) ?? prefix ?? 'Value');
    (errors[key] ??= []).push(messageFor(issue, label));
  }
  return errors;
}
