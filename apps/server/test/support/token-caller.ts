import type { TestApp } from './app.ts';
import { callAs, unique, type Person } from './builders.ts';

/**
 * A caller holding a Data Lab token that `person` makes through the token API: `body` as POST /api/Token takes it
 * (kind, roles or collection), named unless it names the token.
 */
export async function buildTokenCaller(t: TestApp, person: Person, body: Record<string, unknown>): Promise<Person> {
  const response = await person.call('POST', '/api/Token', { name: unique('Token'), ...body });
  if (response.statusCode !== 201) throw new Error(`buildTokenCaller: ${response.statusCode} ${response.body}`);
  const { secret } = response.json<{ secret: string }>();
  return { id: person.id, token: secret, call: callAs(t, secret) };
}
