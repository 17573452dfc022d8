// FNV-1a (32 bit) over the UTF-8 bytes of a text: one home for the stable, platform-independent hash that static
// shards (reconciler/shard.ts), rendezvous scores and member Lease names (membership.ts) are made of.

/** FNV-1a over the UTF-8 bytes of `text`, as an unsigned 32-bit integer. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // ASCII (every Kubernetes name) without a Buffer per call: the fleet is hashed once per member on a view change.
    if (code >= 0x80) return fnv1a32Bytes(text);
    hash = Math.imul(hash ^ code, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

function fnv1a32Bytes(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash >>> 0;
}
