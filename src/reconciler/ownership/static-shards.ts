// Ownership by static shards (--shard-index/--shard-count): this replica judges the Clusters whose name hashes to its
// shard (shard.ts), alone or as the elected leader of that shard (its own Lease, `<name>-shard-<i>-of-<n>`). A shard
// that moves needs a restart with new flags; Lease shards (lease-shards.ts) move them without one.
import type { Shard } from '../shard.js';
import { SingleLeader, type SingleLeaderOptions } from './single-leader.js';
import type { Ownership } from './ownership.js';

export class StaticShards extends SingleLeader {
  override readonly mode: Ownership['mode'] = 'static-shards';

  constructor(options: Omit<SingleLeaderOptions, 'clusterName'>, shard: Shard) {
    super(options, shard);
  }
}
