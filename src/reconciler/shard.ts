// Stable sharding of Clusters across replicas: FNV-1a (32 bit) of the Cluster's name, modulo the shard count, so every
// replica, on every platform and after every restart, agrees on who owns which Cluster. Pure.

/** FNV-1a over the UTF-8 bytes of `text`, as an unsigned 32-bit integer. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export interface Shard {
  index: number;
  count: number;
}

export function shardOf(name: string, count: number): number {
  return count <= 1 ? 0 : fnv1a32(name) % count;
}

/** Whether this replica's shard owns the Cluster `name` (always, without sharding). */
export function ownsCluster(name: string, shard: Shard | undefined): boolean {
  return shard === undefined || shard.count <= 1 || shardOf(name, shard.count) === shard.index;
}
