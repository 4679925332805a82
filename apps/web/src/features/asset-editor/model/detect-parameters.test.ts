import { describe, expect, it } from 'vitest';
import { detectParameters } from './detect-parameters.ts';

describe('detectParameters', () => {
  it('finds each :name once, in order of first use', () => {
    expect(detectParameters('select * from t where a = :region and b in (:country) or a = :region')).toEqual([
      'region',
      'country',
    ]);
  });

  it('skips quoted text, quoted names, comments and :: casts', () => {
    const sql = `select ':notme', "col:x", \`y:z\`, a::int -- :comment
      /* :block */ from t where c = :real and d = 'it''s :quoted'`;
    expect(detectParameters(sql)).toEqual(['real']);
  });
});
