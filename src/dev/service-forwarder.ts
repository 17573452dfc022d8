// A TCP forwarder from an address on the node's bridge to the ready endpoints of a Service, in this process: the part
// of kube-proxy the local node needs for clients outside the cluster that have no cluster DNS (karmada-aggregated-
// apiserver calling the admission webhook). Each connection goes to the next ready endpoint (round robin); endpoints
// are re-read from the Service's EndpointSlices at most every 2 s. Knows nothing of the webhook.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { KubectlResult } from './controlplane.js';

export interface ServiceForwarder {
  /** https://<host>:<port> clients dial. */
  host: string;
  port: number;
  /** The endpoints the last read found ready (ip:port). */
  endpoints(): string[];
  close(): Promise<void>;
}

interface EndpointSliceList {
  items: {
    ports?: { name?: string; port?: number }[];
    endpoints?: { addresses: string[]; conditions?: { ready?: boolean } }[];
  }[];
}

/** Forwards host:port (0: a free one) to the ready endpoints of Service namespace/name, port portName. */
export async function forwardService(options: {
  kubectl: (args: string[]) => Promise<KubectlResult>;
  namespace: string;
  service: string;
  portName: string;
  host: string;
  port?: number;
}): Promise<ServiceForwarder> {
  let ready: string[] = [];
  let readAt = 0;
  let next = 0;
  const sockets = new Set<Socket>();
  const refresh = async (): Promise<string[]> => {
    if (Date.now() - readAt < 2_000) return ready;
    const out = await options.kubectl([
      'get',
      'endpointslices',
      '-n',
      options.namespace,
      '-l',
      `kubernetes.io/service-name=${options.service}`,
      '-o',
      'json',
    ]);
    if (out.code !== 0) return ready;
    const found: string[] = [];
    for (const slice of (JSON.parse(out.stdout) as EndpointSliceList).items) {
      const port = slice.ports?.find((p) => p.name === options.portName)?.port;
      if (port === undefined) continue;
      for (const e of slice.endpoints ?? []) {
        if (e.conditions?.ready === false) continue;
        for (const address of e.addresses) found.push(`${address}:${port}`);
      }
    }
    ready = found.sort();
    readAt = Date.now();
    return ready;
  };
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.pause();
    void refresh().then(
      (targets) => {
        const target = targets[next++ % Math.max(targets.length, 1)];
        if (target === undefined) {
          client.destroy();
          return;
        }
        const [ip, port] = [
          target.slice(0, target.lastIndexOf(':')),
          Number(target.slice(target.lastIndexOf(':') + 1)),
        ];
        const upstream = connect({ host: ip, port });
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        client.pipe(upstream).pipe(client);
        client.resume();
      },
      () => client.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    host: options.host,
    port,
    endpoints: () => ready,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
