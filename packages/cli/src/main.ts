import { readFile, writeFile } from 'node:fs/promises';
import {
  applyCollectionDefinition,
  DEFINITION_MAX_BYTES,
  definitionApplied,
  definitionPlan,
  getCollectionDefinition,
  planCollectionDefinition,
  type DefinitionPlan,
} from '@datalab/contract/api/definitions';
import { callPath } from '@datalab/contract/call';
import { parseCommandLine, sendsTokenInClear, UsageError, USAGE, type Settings } from './args.ts';
import { CommandError, send, type Connection } from './client.ts';
import { missingSecretsText, renderPlan } from './render.ts';
import { parseSecretsFile, secretsFromEnv } from './secrets.ts';

// `datalab definition export|plan|apply`: reads the settings, talks to the server, prints, and answers the exit
// code: 0 done (plan: no changes, with --detailed-exitcode), 2 a plan with changes (--detailed-exitcode), 1 an error.

export interface Io {
  env: Readonly<Record<string, string | undefined>>;
  stdout: { write: (text: string) => unknown };
  stderr: { write: (text: string) => unknown };
  readStdin: () => Promise<string>;
}

export const EXIT = { ok: 0, error: 1, changes: 2 } as const;

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CommandError(`Cannot read ${what} ${path} (${typeof code === 'string' ? code : String(error)})`);
  }
}

async function readDocument(settings: Settings, io: Io): Promise<string> {
  const text = settings.file === undefined ? await io.readStdin() : await readText(settings.file, 'the document');
  if (text.trim() === '')
    throw new CommandError(`The document is empty (${settings.file ?? 'standard input'}): give it with --file`);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > DEFINITION_MAX_BYTES)
    throw new CommandError(
      `The document is ${bytes} bytes; the largest a server accepts is ${DEFINITION_MAX_BYTES} bytes`,
    );
  return text;
}

async function readSecrets(settings: Settings): Promise<Record<string, string>> {
  if (settings.secretsFile === undefined) return {};
  return parseSecretsFile(await readText(settings.secretsFile, 'the secrets file'), settings.secretsFile);
}

function parseAnswer<T>(schema: { safeParse: (value: unknown) => { success: boolean; data?: T } }, text: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success || parsed.data === undefined)
    throw new CommandError('The server answered something that is not a plan: is --server a Data Lab address?');
  return parsed.data;
}

async function exportDefinition(settings: Settings, connection: Connection, io: Io): Promise<number> {
  const path = callPath(getCollectionDefinition.path, { uid: settings.collection });
  const text = await send(connection, path, {
    method: 'GET',
    accept: settings.json ? 'application/json' : 'application/yaml',
  });
  const document = settings.json ? `${JSON.stringify(JSON.parse(text), null, 2)}\n` : text;
  if (settings.file === undefined) io.stdout.write(document);
  else {
    await writeFile(settings.file, document, 'utf8');
    io.stderr.write(`Wrote the definition of ${settings.collection} to ${settings.file}\n`);
  }
  return EXIT.ok;
}

/** Plans the document with the file's secrets, then again with the environment's values for what was missing. */
async function planWithSecrets(settings: Settings, connection: Connection, io: Io) {
  const document = await readDocument(settings, io);
  const secrets = await readSecrets(settings);
  const path = callPath(planCollectionDefinition.path, { uid: settings.collection });
  const plan = async (): Promise<DefinitionPlan> =>
    parseAnswer(
      definitionPlan,
      await send(connection, path, { method: 'POST', accept: 'application/json', body: { document, secrets } }),
    );
  let answer = await plan();
  const fromEnv = secretsFromEnv(answer.missingSecrets, io.env);
  if (Object.keys(fromEnv).length > 0) {
    Object.assign(secrets, fromEnv);
    answer = await plan();
  }
  return { document, secrets, plan: answer };
}

async function planDefinition(settings: Settings, connection: Connection, io: Io): Promise<number> {
  const { plan } = await planWithSecrets(settings, connection, io);
  io.stdout.write(settings.json ? `${JSON.stringify(plan, null, 2)}\n` : renderPlan(plan));
  if (plan.missingSecrets.length > 0) {
    io.stderr.write(`${missingSecretsText(plan.missingSecrets)}\nApply would refuse this document.\n`);
    return EXIT.error;
  }
  if (!settings.detailedExitcode) return EXIT.ok;
  return plan.changes.length > 0 ? EXIT.changes : EXIT.ok;
}

async function applyDefinition(settings: Settings, connection: Connection, io: Io): Promise<number> {
  const { document, secrets, plan } = await planWithSecrets(settings, connection, io);
  if (plan.missingSecrets.length > 0) {
    io.stderr.write(`${missingSecretsText(plan.missingSecrets)}\nNothing was applied.\n`);
    return EXIT.error;
  }
  const path = callPath(applyCollectionDefinition.path, { uid: settings.collection });
  const text = await send(connection, path, {
    method: 'POST',
    accept: 'application/json',
    body: { document, secrets },
  });
  const applied = parseAnswer(definitionApplied, text);
  io.stdout.write(settings.json ? `${JSON.stringify(applied, null, 2)}\n` : renderPlan(applied, { applied: true }));
  return EXIT.ok;
}

/** Runs one command line; answers the process's exit code. Never throws. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const parsed = parseCommandLine(argv, io.env);
    if (parsed.kind === 'help') {
      io.stdout.write(parsed.text);
      return EXIT.ok;
    }
    const { settings } = parsed;
    if (sendsTokenInClear(settings.server))
      io.stderr.write(`datalab: warning: ${settings.server} is plain http: the token and secrets travel unencrypted\n`);
    const connection: Connection = { server: settings.server, token: settings.token };
    if (settings.command === 'export') return await exportDefinition(settings, connection, io);
    if (settings.command === 'plan') return await planDefinition(settings, connection, io);
    return await applyDefinition(settings, connection, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`datalab: ${error.message}\n\n${USAGE}`);
      return EXIT.error;
    }
    if (error instanceof CommandError) {
      io.stderr.write(`datalab: ${error.message}\n`);
      return EXIT.error;
    }
    io.stderr.write(`datalab: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.error;
  }
}
