// The list+watch cache against a scripted API: a 410 Gone relists (and tells deletions that happened meanwhile), any
// other watch error restarts from the last resourceVersion after a backoff, and its handlers see only real changes.
import { expect } from 'chai';
import { Informer, KubeApiError, type KubeApi, type WatchEvent } from '../../../src/kube/index.js';
import { MAX_LIST_PAGES } from '../../../src/kube/informer.js';

interface Obj {
  metadata: { name: string; resourceVersion: string };
}
const obj = (name: string, rv: string): Obj => ({ metadata: { name, resourceVersion: rv } });

type WatchStep = (onEvent: (e: WatchEvent<Obj>) => void) => Promise<void>;

/** Lists return `lists` in turn (the last one repeats); watches run `watches` in turn, then hang until aborted. */
class ScriptedApi implements KubeApi {
  readonly calls: string[] = [];
  constructor(
    private readonly lists: Obj[][],
    private readonly watches: WatchStep[],
  ) {}

  async request<T>(_method: string, _path: string): Promise<T> {
    this.calls.push(`list`);
    const items = this.lists.length > 1 ? this.lists.shift()! : this.lists[0]!;
    return { items, metadata: { resourceVersion: String(10 * this.calls.length) } } as T;
  }

  async watch<T>(
    _path: string,
    query: Record<string, string | number | boolean | undefined>,
    onEvent: (event: WatchEvent<T>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    this.calls.push(`watch@${String(query.resourceVersion)}`);
    const step = this.watches.shift();
    if (step !== undefined) return step(onEvent as (e: WatchEvent<Obj>) => void);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}

/** Polls every 2 ms; the deadline only catches a hang (docs/testing.md): each wait takes milliseconds when quiet. */
const until = async (cond: () => boolean): Promise<void> => {
  const deadline = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not reached in 10 s');
    await new Promise((r) => setTimeout(r, 2));
  }
};

describe('reconciler informer', () => {
  it('relists on 410 Gone and reports what disappeared meanwhile as deleted', async () => {
    const api = new ScriptedApi(
      [[obj('a', '1'), obj('b', '2')], [obj('a', '1')]],
      [
        async (on) => {
          on({ type: 'MODIFIED', object: obj('b', '3') });
          throw new KubeApiError(410, 'Expired', 'too old resource version');
        },
      ],
    );
    const seen: string[] = [];
    const inf = new Informer<Obj>({ api, path: '/x', resource: 'x', backoffBaseMs: 1 });
    inf.addHandlers({
      onAdd: (o) => seen.push(`add ${o.metadata.name}`),
      onUpdate: (_o, n) => seen.push(`update ${n.metadata.name}@${n.metadata.resourceVersion}`),
      onDelete: (o) => seen.push(`delete ${o.metadata.name}`),
    });
    inf.start();
    await until(() => api.calls.length >= 4);
    await inf.stop();
    expect(api.calls).to.deep.equal(['list', 'watch@10', 'list', 'watch@30']);
    expect(seen).to.deep.equal(['add a', 'add b', 'update b@3', 'delete b']);
    expect(inf.list().map((o) => o.metadata.name)).to.deep.equal(['a']);
  });

  it('restarts the watch from the last resourceVersion after an error, without a relist', async () => {
    const restarts: string[] = [];
    const api = new ScriptedApi(
      [[obj('a', '1')]],
      [
        async (on) => {
          on({ type: 'MODIFIED', object: obj('a', '15') });
          throw new Error('socket hang up');
        },
        async () => {
          throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
        },
      ],
    );
    const inf = new Informer<Obj>({
      api,
      path: '/x',
      resource: 'x',
      backoffBaseMs: 1,
      onRestart: (reason) => restarts.push(reason),
    });
    inf.start();
    await until(() => api.calls.length >= 4);
    await inf.stop();
    expect(api.calls).to.deep.equal(['list', 'watch@10', 'watch@15', 'watch@15']);
    expect(restarts).to.deep.equal(['error', 'error']);
  });

  it('does not report an update that carries the resourceVersion it already has', async () => {
    const api = new ScriptedApi([[obj('a', '1')]], [async (on) => on({ type: 'MODIFIED', object: obj('a', '1') })]);
    let updates = 0;
    const inf = new Informer<Obj>({ api, path: '/x', resource: 'x', resyncMs: 60_000 });
    inf.addHandlers({ onUpdate: () => updates++ });
    inf.start();
    expect(await inf.waitForSync(1_000)).to.equal(true);
    await until(() => api.calls.length >= 3);
    await inf.stop();
    expect(updates).to.equal(0);
  });
});

describe('reconciler informer against an apiserver that misbehaves', () => {
  const lists = (api: ScriptedApi) => api.calls.filter((c) => c === 'list').length;
  const watches = (api: ScriptedApi) => api.calls.filter((c) => c.startsWith('watch')).length;

  it('backs off when the watch is Gone again and again (it relisted in a tight loop, ~140 times a second)', async () => {
    const gone: WatchStep = async () => {
      throw new KubeApiError(410, 'Expired', 'too old resource version');
    };
    const api = new ScriptedApi(
      [[obj('a', '1')]],
      Array.from({ length: 1000 }, () => gone),
    );
    const inf = new Informer<Obj>({ api, path: '/x', resource: 'x', backoffBaseMs: 40, backoffMaxMs: 200 });
    inf.start();
    // The first 410 relists at once (waited for, an event), the next ones wait 20-40, 40-80, 80-160 ms...: a busy
    // machine can only make fewer of them in the window; a tight loop made about 56.
    await until(() => lists(api) >= 2);
    await new Promise((r) => setTimeout(r, 400));
    await inf.stop();
    expect(lists(api)).to.be.within(2, 8);
  });

  it('relists at once on the first 410 after an outage (the backoff the outage grew delayed the relist by seconds)', async () => {
    // karmada-aggregated-apiserver restarted with etcd compacted: the watch fails while it is down (connection refused),
    // then the first answer is 410 Gone. The relist is what the server asks for, and what re-reads every Cluster.
    const refused: WatchStep = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    };
    let goneAt = 0;
    const gone: WatchStep = async () => {
      goneAt = performance.now();
      throw new KubeApiError(410, 'Expired', 'too old resource version');
    };
    const api = new ScriptedApi(
      [[obj('a', '1')], [obj('a', '2')]],
      [...Array.from({ length: 5 }, () => refused), gone],
    );
    let relistedAt = 0;
    const inf = new Informer<Obj>({ api, path: '/x', resource: 'x', backoffBaseMs: 50, backoffMaxMs: 60_000 });
    inf.addHandlers({ onUpdate: () => void (relistedAt = performance.now()) });
    inf.start();
    await until(() => relistedAt > 0);
    await inf.stop();
    // Five failures grew the backoff to 800-1,600 ms for the next attempt: the relist waited that long after the 410.
    expect(relistedAt - goneAt).to.be.below(400);
  });

  it('relists at once on the first 410 of a second outage too (the 410 of the first one counted as "Gone again")', async () => {
    // The aggregated apiserver restarted twice, a quiet watch in between (no event, it never ended cleanly): errors
    // between two 410s mean an outage, not a watch that is always Gone.
    const refused: WatchStep = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    };
    let goneAt = 0;
    const gone: WatchStep = async () => {
      goneAt = performance.now();
      throw new KubeApiError(410, 'Expired', 'too old resource version');
    };
    const api = new ScriptedApi(
      [[obj('a', '1')], [obj('a', '2')], [obj('a', '3')]],
      [gone, ...Array.from({ length: 5 }, () => refused), gone],
    );
    const relists: number[] = [];
    const inf = new Informer<Obj>({ api, path: '/x', resource: 'x', backoffBaseMs: 50, backoffMaxMs: 60_000 });
    inf.addHandlers({ onUpdate: () => void relists.push(performance.now()) });
    inf.start();
    await until(() => relists.length >= 2);
    await inf.stop();
    expect(relists[1]! - goneAt).to.be.below(400);
  });

  it('backs off when a watch ends at once without an event (it re-watched in a tight loop)', async () => {
    const empty: WatchStep = async () => undefined;
    const api = new ScriptedApi(
      [[obj('a', '1')]],
      Array.from({ length: 1000 }, () => empty),
    );
    const inf = new Informer<Obj>({ api, path: '/x', resource: 'x', backoffBaseMs: 40, backoffMaxMs: 200 });
    inf.start();
    await until(() => watches(api) >= 2);
    await new Promise((r) => setTimeout(r, 400));
    await inf.stop();
    expect(watches(api)).to.be.within(2, 8);
  });

  it('relists after the resync period while every watch fails (the cache stayed stale for ever)', async () => {
    const fail: WatchStep = async () => {
      throw new KubeApiError(500, 'InternalError', 'boom');
    };
    const api = new ScriptedApi(
      [[obj('a', '1')], [obj('a', '2')]],
      Array.from({ length: 1000 }, () => fail),
    );
    const inf = new Informer<Obj>({
      api,
      path: '/x',
      resource: 'x',
      backoffBaseMs: 5,
      backoffMaxMs: 10,
      resyncMs: 100,
    });
    inf.start();
    await until(() => inf.list()[0]?.metadata.resourceVersion === '2');
    await inf.stop();
    expect(lists(api)).to.be.at.least(2);
  });

  it('applies an event whose handler throws, calls the other handlers, and reports the error', async () => {
    const api = new ScriptedApi(
      [[]],
      [
        async (on) => {
          on({ type: 'ADDED', object: obj('c1', '11') });
          on({ type: 'ADDED', object: obj('c2', '12') });
        },
      ],
    );
    const errors: string[] = [];
    const seen: string[] = [];
    const inf = new Informer<Obj>({
      api,
      path: '/x',
      resource: 'x',
      backoffBaseMs: 1,
      onHandlerError: (err) => errors.push((err as Error).message),
    });
    inf.addHandlers({
      onAdd: (o) => {
        if (o.metadata.name === 'c1') throw new Error('handler failed on c1');
      },
    });
    inf.addHandlers({ onAdd: (o) => seen.push(o.metadata.name) });
    inf.start();
    await until(() => seen.length >= 2);
    await inf.stop();
    expect(seen).to.deep.equal(['c1', 'c2']);
    expect(errors).to.deep.equal(['handler failed on c1']);
    expect(api.calls.filter((c) => c === 'list')).to.have.length(1);
  });
});

describe('reconciler informer against a list that never ends', () => {
  /** Every list page holds one object and a continue token: the same one, or a new one each time. */
  class EndlessList implements KubeApi {
    pages = 0;
    constructor(private readonly token: 'same' | 'new') {}
    async request<T>(): Promise<T> {
      this.pages++;
      const cont = this.token === 'same' ? 'again' : `t${this.pages}`;
      return { items: [obj(`o${this.pages}`, '1')], metadata: { resourceVersion: '1', continue: cont } } as T;
    }
    async watch(): Promise<void> {
      throw new Error('never reached: the list does not end');
    }
  }

  for (const [token, most] of [
    ['same', 2],
    ['new', MAX_LIST_PAGES],
  ] as const) {
    it(`stops a list whose continue token is ${token === 'same' ? 'the same again' : 'new every page'} after ${most} pages, and never syncs`, async () => {
      const api = new EndlessList(token);
      const restarts: unknown[] = [];
      const inf = new Informer<Obj>({
        api,
        path: '/x',
        resource: 'x',
        backoffBaseMs: 10_000,
        onRestart: (_reason, err) => restarts.push(err),
      });
      inf.start();
      await until(() => restarts.length >= 1);
      await inf.stop();
      expect(api.pages).to.equal(most);
      expect(String(restarts[0])).to.match(token === 'same' ? /the same continue token again/ : /more than 2000 pages/);
      expect(inf.list()).to.deep.equal([]);
    });
  }
});
