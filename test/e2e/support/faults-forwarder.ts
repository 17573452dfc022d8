// A TCP forwarder on 127.0.0.1 that a test can cut and heal: a client whose kubeconfig points here reaches the
// apiserver behind it until cut(), then nothing moves either way (every piped socket paused, new connections accepted
// and held), as a network partition does: bytes wait in the kernel's buffers, nothing is refused or reset. heal()
// resumes every pipe, so what the client wrote during the cut (a request it may since have given up on) still reaches
// the server, late, as retransmitted segments would. Knows nothing of Kubernetes.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface FaultsForwarder {
  port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  readonly isCut: boolean;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startForwarder(targetPort: number, targetHost = '127.0.0.1'): Promise<FaultsForwarder> {
  interface Pair {
    client: Socket;
    upstream: Socket;
    piped: boolean;
  }
  const pairs = new Set<Pair>();
  let cut = false;
  let connections = 0;
  // pipe() sets a paused source flowing: a pair is piped only while not cut, and unpiped before it is paused.
  const pipe = (pair: Pair): void => {
    if (pair.piped) return;
    pair.piped = true;
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
  };
  const server: Server = createServer((client) => {
    connections++;
    const upstream = connect({ host: targetHost, port: targetPort });
    const pair: Pair = { client, upstream, piped: false };
    pairs.add(pair);
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    // During a cut: accepted (the kernel completes the handshake), then silent until heal().
    if (cut) {
      client.pause();
      upstream.pause();
    } else pipe(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    get isCut() {
      return cut;
    },
    cut() {
      cut = true;
      for (const pair of pairs) {
        pair.client.unpipe(pair.upstream);
        pair.upstream.unpipe(pair.client);
        pair.piped = false;
        pair.client.pause();
        pair.upstream.pause();
      }
    },
    heal() {
      cut = false;
      for (const pair of pairs) pipe(pair);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
