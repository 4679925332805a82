import { parseArgs } from 'node:util';

// The command line's words and options (node:util parseArgs, no framework). The token is never an option: a flag
// ends up in shell history, CI logs and process lists, so it is read from DATALAB_TOKEN only.

export const commands = ['export', 'plan', 'apply'] as const;
export type Command = (typeof commands)[number];

export interface Settings {
  command: Command;
  /** The server's base address, without a trailing slash: `https://datalab.example.com`. */
  server: string;
  token: string;
  collection: string;
  /** Where the document is read from (plan, apply) or written to (export); standard input or output when absent. */
  file: string | undefined;
  secretsFile: string | undefined;
  json: boolean;
  detailedExitcode: boolean;
}

export type Parsed = { kind: 'help'; text: string } | { kind: 'run'; settings: Settings };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: datalab definition <export|plan|apply> --collection <uid> [options]

  export   write the collection's definition as YAML (to --file, or standard output)
  plan     show what a document would change, touching nothing
  apply    make the document's changes in one transaction

Options:
  --collection <uid>     the collection (its ID, shown on its overview)
  --server <url>         the Data Lab address (or DATALAB_URL)
  --file <path>          the document to read (plan, apply) or write (export); '-' or absent: stdin / stdout
  --secrets-file <path>  secret values by reference: a JSON object, or lines 'reference=value'
  --detailed-exitcode    plan: exit 0 when nothing would change, 2 when something would, 1 on error
  --json                 print the server's answer as JSON (export: the document as JSON)
  -h, --help             this text

Environment:
  DATALAB_TOKEN                 the bearer token (required; never given as an option)
  DATALAB_URL                   the server, when --server is not given
  DATALAB_SECRET_<REFERENCE>    the value of a secret reference the collection does not hold yet:
                                the reference upper-cased, every character other than A-Z and 0-9 as '_'
                                (shop.password → DATALAB_SECRET_SHOP_PASSWORD)
`;

const options = {
  collection: { type: 'string' },
  server: { type: 'string' },
  file: { type: 'string' },
  'secrets-file': { type: 'string' },
  'detailed-exitcode': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function isCommand(word: string | undefined): word is Command {
  return commands.some((command) => command === word);
}

/** The server address as given, checked: http or https, no query or fragment; answered without a trailing slash. */
export function serverAddress(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`The server address '${text}' is not a URL (expected e.g. https://datalab.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`The server address must start with http:// or https:// (got ${url.protocol})`);
  if (url.search || url.hash || url.username || url.password)
    throw new UsageError('The server address must not carry a query, a fragment or credentials');
  return url.href.replace(/\/+$/u, '');
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether the token would cross a network unencrypted: plain http to a host other than this machine. */
export function sendsTokenInClear(server: string): boolean {
  const url = new URL(server);
  return url.protocol === 'http:' && !LOOPBACK.has(url.hostname);
}

const VALUED = new Set(
  Object.entries(options)
    .filter(([, option]) => option.type === 'string')
    .map(([name]) => `--${name}`),
);
const FLAGS = new Set([...Object.keys(options).map((name) => `--${name}`), '-h']);

function isOption(word: string): boolean {
  return FLAGS.has(word.split('=', 1)[0]!);
}

/**
 * `--collection -yO1…` as `--collection=-yO1…`: an option that takes a value takes the next word even when it starts
 * with '-' (collection ids may, and parseArgs would refuse them as ambiguous), unless that word is one of the options.
 */
function joinValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    if (VALUED.has(arg) && value !== undefined && !isOption(value)) {
      joined.push(`${arg}=${value}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: joinValues(argv), options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Reads the command line and the environment; throws a UsageError with what is wrong. */
export function parseCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Parsed {
  if (argv.some((arg) => arg === '--token' || arg.startsWith('--token=')))
    throw new UsageError(
      'The token is read from the DATALAB_TOKEN environment variable only: an option would leave it in shell ' +
        'history and process lists',
    );
  const { values, positionals } = parse(argv);
  if (values.help || positionals.length === 0) return { kind: 'help', text: USAGE };

  const [noun, verb, ...rest] = positionals;
  if (noun !== 'definition') throw new UsageError(`Unknown command '${noun}': the command is 'datalab definition'`);
  if (!isCommand(verb))
    throw new UsageError(
      verb === undefined
        ? `Name what to do: datalab definition ${commands.join('|')}`
        : `Unknown command 'definition ${verb}': use one of ${commands.join(', ')}`,
    );
  if (rest.length > 0) throw new UsageError(`Unexpected argument '${rest[0]}' (the document is given with --file)`);

  const serverText = values.server ?? env['DATALAB_URL'];
  if (!serverText) throw new UsageError('Give the server with --server <url> or DATALAB_URL');
  const token = env['DATALAB_TOKEN']?.trim();
  if (!token) throw new UsageError('Set DATALAB_TOKEN to a bearer token of an Owner of the collection');
  const collection = values.collection?.trim();
  if (!collection) throw new UsageError('Name the collection with --collection <uid>');
  if (values['detailed-exitcode'] && verb !== 'plan') throw new UsageError('--detailed-exitcode applies to plan only');
  if (values['secrets-file'] !== undefined && verb === 'export')
    throw new UsageError('--secrets-file applies to plan and apply: an export holds no secret values');

  return {
    kind: 'run',
    settings: {
      command: verb,
      server: serverAddress(serverText),
      token,
      collection,
      file: values.file === '-' ? undefined : values.file,
      secretsFile: values['secrets-file'],
      json: values.json,
      detailedExitcode: values['detailed-exitcode'],
    },
  };
}
