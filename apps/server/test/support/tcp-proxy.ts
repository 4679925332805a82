import { connect, createServer, type Server, type Socket } from 'node:net';

// A TCP relay between the app and a real service (PostgreSQL, MariaDB, Redis), so a test can make the service
// "go away" without touching it: the machine's services are shared by every test and engineer.
//
// `cut()` destroys every relayed connection and refuses new ones (a closed port: ECONNREFUSED), as a stopped
// service does; `hang()` accepts new connections and relays nothing, as a network that drops packets does;
// `restore()` relays again on the same port. The port stays the same for the proxy's whole life.

export interface TcpProxy {
  port: number;
  /** `127.0.0.1:<port>`. */
  address: string;
  /** Connections relayed since the start (accepted while relaying). */
  readonly connections: number;
  cut(): Promise<void>;
  hang(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

type Mode = 'relay' | 'hang';

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const host = target.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  let mode: Mode = 'relay';
  let connections = 0;
  let server: Server | undefined;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const onConnection = (client: Socket) => {
    track(client);
    if (mode === 'hang') return; // held open, never answered: only the client's own timeout ends it
    connections += 1;
    const upstream = connect(target.port, host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop);
    upstream.on('close', drop);
  };

  const listen = async (port: number) => {
    server = createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(port, '127.0.0.1', () => resolve());
    });
    return (server.address() as { port: number }).port;
  };

  const stopListening = async () => {
    const closing = server ? new Promise((resolve) => server!.close(resolve)) : Promise.resolve();
    server = undefined;
    await closing;
  };

  const destroyAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  const port = await listen(0);

  return {
    port,
    address: `127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    async cut() {
      mode = 'relay';
      const closing = stopListening();
      destroyAll();
      await closing;
    },
    async hang() {
      destroyAll();
      mode = 'hang';
      if (!server) await listen(port);
    },
    async restore() {
      destroyAll(); // a hung connection is dead to its client anyway
      mode = 'relay';
      if (!server) await listen(port);
    },
    async close() {
      const closing = stopListening();
      destroyAll();
      await closing;
    },
  };
}
