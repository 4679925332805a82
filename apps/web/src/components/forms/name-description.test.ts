import { describe, expect, it } from 'vitest';
import { createCollection } from '@datalab/contract/api/collections';
import { validateNameDescription } from './name-description.ts';

describe('validateNameDescription', () => {
  it("words the contract's rules for people", () => {
    expect(validateNameDescription(createCollection, { name: '   ', description: '' })).toEqual({
      name: 'Name is required',
    });
    expect(validateNameDescription(createCollection, { name: 'a'.repeat(101), description: 'b'.repeat(2001) })).toEqual(
      {
        name: 'Name must be at most 100 characters',
        description: 'Description must be at most 2000 characters',
      },
    );
    expect(validateNameDescription(createCollection, { name: 'Sales', description: '' })).toEqual({});
  });
});
