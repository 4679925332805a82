import { describe, expect, it } from 'vitest';
import { parseCommandLine, sendsTokenInClear, serverAddress, UsageError } from './args.ts';

const env = { DATALAB_TOKEN: 'secret-token', DATALAB_URL: 'https://datalab.example.com/' };

function settingsOf(argv: string[], environment: Record<string, string | undefined> = env) {
  const parsed = parseCommandLine(argv, environment);
  if (parsed.kind !== 'run') throw new Error('expected settings');
  return parsed.settings;
}

const refusal = (argv: string[], environment: Record<string, string | undefined> = env) => {
  try {
    parseCommandLine(argv, environment);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a UsageError');
};

describe('parseCommandLine', () => {
  it('reads a plan with every option', () => {
    expect(
      settingsOf([
        'definition',
        'plan',
        '--collection',
        ' col-1 ',
        '--server=http://localhost:8080/',
        '--file',
        'sales.datalab.yaml',
        '--secrets-file',
        's.json',
        '--detailed-exitcode',
        '--json',
      ]),
    ).toEqual({
      command: 'plan',
      server: 'http://localhost:8080',
      token: 'secret-token',
      collection: 'col-1',
      file: 'sales.datalab.yaml',
      secretsFile: 's.json',
      json: true,
      detailedExitcode: true,
    });
  });

  it('takes the server from DATALAB_URL when --server is absent, and standard input for --file -', () => {
    const settings = settingsOf(['definition', 'apply', '--collection', 'c', '--file', '-']);
    expect(settings.server).toBe('https://datalab.example.com');
    expect(settings.file).toBeUndefined();
    expect(settings.detailedExitcode).toBe(false);
  });

  it('takes a collection id or file that starts with a dash as the option value', () => {
    const settings = settingsOf(['definition', 'plan', '--collection', '-yO1OdDKB_4P', '--file', '-dash.yaml']);
    expect(settings.collection).toBe('-yO1OdDKB_4P');
    expect(settings.file).toBe('-dash.yaml');
    expect(settingsOf(['definition', 'plan', '--collection=-abc']).collection).toBe('-abc');
    expect(refusal(['definition', 'plan', '--collection', '--json'])).toContain('--collection');
  });

  it('answers the usage for no words or --help', () => {
    expect(parseCommandLine([], {}).kind).toBe('help');
    expect(parseCommandLine(['definition', 'plan', '-h'], {}).kind).toBe('help');
  });

  it('refuses a token on the command line, in either spelling, without echoing it', () => {
    for (const argv of [
      ['definition', 'plan', '--token', 'abc123'],
      ['definition', 'plan', '--token=abc123'],
    ]) {
      const message = refusal(argv);
      expect(message).toContain('DATALAB_TOKEN');
      expect(message).not.toContain('abc123');
    }
  });

  it('says what is missing or wrong', () => {
    expect(refusal(['definition', 'plan', '--collection', 'c'], { DATALAB_URL: 'http://x' })).toContain(
      'Set DATALAB_TOKEN',
    );
    expect(refusal(['definition', 'plan', '--collection', 'c'], { DATALAB_TOKEN: 't' })).toContain('--server');
    expect(refusal(['definition', 'plan'])).toContain('--collection');
    expect(refusal(['definition', 'destroy', '--collection', 'c'])).toBe(
      "Unknown command 'definition destroy': use one of export, plan, apply",
    );
    expect(refusal(['definitions', 'plan'])).toContain("Unknown command 'definitions'");
    expect(refusal(['definition'])).toContain('export|plan|apply');
    expect(refusal(['definition', 'plan', '--collection', 'c', 'doc.yaml'])).toContain(
      "Unexpected argument 'doc.yaml'",
    );
    expect(refusal(['definition', 'apply', '--collection', 'c', '--detailed-exitcode'])).toBe(
      '--detailed-exitcode applies to plan only',
    );
    expect(refusal(['definition', 'export', '--collection', 'c', '--secrets-file', 'x'])).toContain('plan and apply');
    expect(refusal(['definition', 'plan', '--collection', 'c', '--verbose'])).toContain("'--verbose'");
    expect(refusal(['definition', 'plan', '--collection'])).toContain('--collection');
  });
});

describe('serverAddress', () => {
  it('keeps a path prefix and drops trailing slashes', () => {
    expect(serverAddress('https://example.com/datalab/')).toBe('https://example.com/datalab');
  });

  it('refuses what is not an http address', () => {
    expect(() => serverAddress('example.com')).toThrow('is not a URL');
    expect(() => serverAddress('ftp://example.com')).toThrow('http:// or https://');
    expect(() => serverAddress('https://user:pw@example.com')).toThrow('credentials');
    expect(() => serverAddress('https://example.com/?a=1')).toThrow('query');
  });
});

describe('sendsTokenInClear', () => {
  it('is true for plain http to another machine only', () => {
    expect(sendsTokenInClear('http://datalab.example.com')).toBe(true);
    expect(sendsTokenInClear('https://datalab.example.com')).toBe(false);
    expect(sendsTokenInClear('http://localhost:8080')).toBe(false);
    expect(sendsTokenInClear('http://127.0.0.1:8080')).toBe(false);
    expect(sendsTokenInClear('http://[::1]:8080')).toBe(false);
  });
});
