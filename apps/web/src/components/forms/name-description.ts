import type { z } from 'zod';
import { messages } from '@datalab/contract/messages';

// The rules of a name + description form come from the contract's body schema (one copy of each
// rule); this only words its issues for people.

export interface NameDescription {
  name: string;
  description: string;
}

export type NameDescriptionErrors = Partial<Record<keyof NameDescription, string>>;

const labels: Record<keyof NameDescription, string> = { name: 'Name', description: 'Description' };

const isField = (key: unknown): key is keyof NameDescription => key === 'name' || key === 'description';

export function validateNameDescription(schema: z.ZodType, values: NameDescription): NameDescriptionErrors {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: NameDescriptionErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (!isField(field) || errors[field]) continue;
    if (issue.code === 'too_small') errors[field] = messages.required(labels[field]);
    else if (issue.code === 'too_big')
      errors[field] = `${labels[field]} must be at most ${String(issue.maximum)} characters`;
    else errors[field] = issue.message;
  }
  return errors;
}
