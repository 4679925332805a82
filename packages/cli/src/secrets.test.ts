import { describe, expect, it } from 'vitest';
import { parseSecretsFile, secretEnvName, secretsFromEnv } from './secrets.ts';

describe('secret values', () => {
  it('names the environment variable of a reference', () => {
    expect(secretEnvName('db-password')).toBe('DATALAB_SECRET_DB_PASSWORD');
    expect(secretEnvName('Shop.API key')).toBe('DATALAB_SECRET_SHOP_API_KEY');
    expect(secretEnvName('token2')).toBe('DATALAB_SECRET_TOKEN2');
  });

  it('takes from the environment only the references asked for, and no empty value', () => {
    const env = { DATALAB_SECRET_DB_PASSWORD: 'p=1', DATALAB_SECRET_OTHER: 'x', DATALAB_SECRET_EMPTY: '' };
    expect(secretsFromEnv(['db-password', 'empty', 'absent'], env)).toEqual({ 'db-password': 'p=1' });
  });

  it('reads a JSON object or reference=value lines', () => {
    expect(parseSecretsFile('{"db-password": "a b", "key": "=x"}')).toEqual({ 'db-password': 'a b', key: '=x' });
    expect(parseSecretsFile('# comment\n\ndb-password=a=b c \r\n key =v\n')).toEqual({
      'db-password': 'a=b c ',
      key: 'v',
    });
  });

  it('refuses a malformed file without printing its values', () => {
    expect(() => parseSecretsFile('[1]', 's.json')).toThrow('s.json must hold one JSON object');
    expect(() => parseSecretsFile('{"a": 1}', 's.json')).toThrow("the value of 'a' must be text");
    expect(() => parseSecretsFile('{"a": ', 's.json')).toThrow('s.json is not valid JSON');
    expect(() => parseSecretsFile('ok=1\nhunter2\n', 's.env')).toThrow("s.env, line 2: expected 'reference=value'");
    expect(() => parseSecretsFile('ok=1\nhunter2\n', 's.env')).not.toThrow('hunter2');
  });
});
