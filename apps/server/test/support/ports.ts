import { createServer } from 'node:net';

/** A TCP port free on the loopback interface right now, for a server a test or benchmark starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('could not pick a free port');
  return address.port;
}
