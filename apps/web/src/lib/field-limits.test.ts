import { describe, expect, it } from 'vitest';
import { COLLECTION_NAME_MAX, createCollection } from '@datalab/contract/api/collections';
import { fieldLimits } from './field-limits.ts';

describe('field limits from the contract', () => {
  it("read a body schema's text bounds", () => {
    const limits = fieldLimits(createCollection);
    expect(limits['name']?.maxLength).toBe(COLLECTION_NAME_MAX);
    expect(limits['name']?.minLength).toBe(1);
    expect(limits['description']?.maxLength).toBeGreaterThan(0);
  });
});
