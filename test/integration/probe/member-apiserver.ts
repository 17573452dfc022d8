// A member apiserver stand-in over HTTPS: /readyz, and /api/v1/nodes and /api/v1/pods with `limit`/`continue`
// pagination (at most `pageCap` items a page whatever the limit), bearer-token checked. For the apiServer probe tests.
import https from 'node:https';
import { listen, close } from './servers.js';

export interface StandInNode {
  name: string;
  ready: boolean;
}

export interface StandInPod {
  name: string;
  namespace: string;
  phase: 'Running' | 'Pending' | 'Succeeded' | 'Failed';
  ready: boolean;
  hostNetwork?: boolean;
}

export interface StandIn {
  port: number;
  url: string;
  nodes: StandInNode[];
  pods: StandInPod[];
  readyzStatus: number;
  /** When set, /readyz answers 302 to this Location. */
  readyzLocation?: string | undefined;
  /** When true, /readyz sends its headers and part of its body, then nothing. */
  readyzStalls?: boolean;
  /** With readyzStalls: the connection is closed after the part sent (the body cut short). */
  cutStalledBody?: boolean;
  /** Every request path with its query, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startMemberApiserver(opts: {
  key: string;
  cert: string;
  token: string;
  pageCap?: number;
}): Promise<StandIn> {
  const pageCap = opts.pageCap ?? 2;
  const state: Omit<StandIn, 'port' | 'url' | 'close'> = { nodes: [], pods: [], readyzStatus: 200, requests: [] };
  const server = https.createServer({ key: opts.key, cert: opts.cert }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://x');
    state.requests.push(`${url.pathname}${url.search}`);
    if (url.pathname === '/readyz' && state.readyzLocation !== undefined) {
      res.writeHead(302, { location: state.readyzLocation });
      res.end();
      return;
    }
    if (url.pathname === '/readyz' && state.readyzStalls === true) {
      res.writeHead(200, { 'content-length': '100' });
      res.write('o');
      if (state.cutStalledBody === true) setTimeout(() => res.socket?.end(), 20);
      return;
    }
    if (url.pathname === '/readyz' || url.pathname === '/healthz') {
      res.writeHead(state.readyzStatus, { 'content-type': 'text/plain' });
      res.end(state.readyzStatus === 200 ? 'ok' : '[-]etcd failed: reason withheld');
      return;
    }
    if (req.headers.authorization !== `Bearer ${opts.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', code: 401 }));
      return;
    }
    const list = (items: unknown[], kind: string): void => {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? '500') || 500, pageCap);
      const start = Number(url.searchParams.get('continue') ?? '0');
      const page = items.slice(start, start + limit);
      const next = start + limit < items.length ? String(start + limit) : undefined;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          kind,
          apiVersion: 'v1',
          metadata: { resourceVersion: '1', ...(next !== undefined ? { continue: next } : {}) },
          items: page,
        }),
      );
    };
    const cond = (ready: boolean): unknown[] => [
      { type: 'MemoryPressure', status: 'False' },
      { type: 'Ready', status: ready ? 'True' : 'False' },
    ];
    if (url.pathname === '/api/v1/nodes') {
      list(
        state.nodes.map((n) => ({ metadata: { name: n.name }, status: { conditions: cond(n.ready) } })),
        'NodeList',
      );
      return;
    }
    if (url.pathname === '/api/v1/pods') {
      const selector = url.searchParams.get('fieldSelector');
      const pods = state.pods.filter((p) => selector !== 'status.phase=Running' || p.phase === 'Running');
      list(
        pods.map((p) => ({
          metadata: { name: p.name, namespace: p.namespace },
          spec: { hostNetwork: p.hostNetwork === true ? true : undefined },
          status: { phase: p.phase, conditions: cond(p.ready) },
        })),
        'PodList',
      );
      return;
    }
    res.writeHead(404);
    res.end();
  });
  const port = await listen(server);
  const standIn = Object.assign(state, {
    port,
    url: `https://127.0.0.1:${port}`,
    close: () => close(server),
  });
  return standIn;
}
