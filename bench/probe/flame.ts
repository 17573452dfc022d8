// bench/probe/flame.ts: a V8 CPU profile (`node --cpu-prof`, or `bench/probe/index.ts --cpu-prof DIR`) as a flame
// graph (SVG, one box a call path, its width the samples under it; idle time left out) and as a table of where the
// busy time goes by part (the probe engine's files, Node's net and streams, timers, the garbage collector, ...).
//
//   npx tsx bench/probe/flame.ts PROFILE.cpuprofile [--svg OUT.svg] [--title TEXT]
//
// Self-contained, no dependency: the layout is the classic one (root at the bottom, callers below callees, children
// sorted by name so that two graphs of the same code line up).
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of the process a frame belongs to, as docs/probe.md names them. */
export function partOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : 'V8 and Node builtins';
  const file = url.split('/').pop() ?? url;
  if (url.includes('packages/probe/')) {
    if (/^(scheduler|worker|prober)\.js$/.test(file)) return `engine: scheduling (${file})`;
    if (/^go-(response-head|chunked)\.js$|^http1\.js$|^response\.js$/.test(file))
      return `engine: HTTP/1 client (${file})`;
    return `engine: ${file}`;
  }
  if (url.includes('packages/schema/')) return `schema package: ${file}`;
  if (url.startsWith('node:internal/timers') || url === 'node:timers') return 'Node: timers';
  if (url === 'node:net' || url.startsWith('node:internal/stream_base') || url.startsWith('node:internal/net'))
    return 'Node: net';
  if (url.startsWith('node:internal/streams') || url === 'node:stream') return 'Node: streams';
  if (url === 'node:tls' || url.startsWith('node:_tls')) return 'Node: TLS';
  if (url.startsWith('node:')) return `Node: ${url.slice(5)}`;
  return url.includes('node_modules/') ? `dependency: ${url.split('node_modules/')[1]!.split('/')[0]}` : file;
}

interface Box {
  name: string;
  part: string;
  self: number;
  total: number;
  children: Map<string, Box>;
}

/** The profile's call tree merged by frame (a function called from one path is one box), with sample time. */
export function callTree(profile: Profile): { root: Box; parts: Map<string, number>; idle: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfTime = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfTime.set(id, (selfTime.get(id) ?? 0) + Math.max(0, profile.timeDeltas[i] ?? 0));
  }
  const root: Box = { name: 'all busy time', part: '', self: 0, total: 0, children: new Map() };
  const parts = new Map<string, number>();
  let idle = 0;
  const visit = (node: ProfileNode, into: Box): void => {
    const f = node.callFrame;
    const t = selfTime.get(node.id) ?? 0;
    if (f.functionName === '(idle)') {
      idle += t;
      return;
    }
    const part = partOf(f);
    const where = f.url === '' ? '' : ` ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    const name = `${f.functionName || '(anonymous)'}${where}`;
    let box = into.children.get(name);
    if (box === undefined) into.children.set(name, (box = { name, part, self: 0, total: 0, children: new Map() }));
    box.self += t;
    parts.set(part, (parts.get(part) ?? 0) + t);
    for (const c of node.children ?? []) visit(byId.get(c)!, box);
  };
  const top = profile.nodes[0]!;
  for (const c of top.children ?? []) visit(byId.get(c)!, root);
  const sum = (b: Box): number => (b.total = b.self + [...b.children.values()].reduce((s, c) => s + sum(c), 0));
  sum(root);
  return { root, parts, idle };
}

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A warm colour from the box's part, stable across runs. */
function colour(part: string): string {
  let h = 0;
  for (let i = 0; i < part.length; i++) h = (h * 31 + part.charCodeAt(i)) >>> 0;
  if (part.startsWith('engine')) return `hsl(${200 + (h % 40)}, 60%, 65%)`;
  if (part.startsWith('(garbage')) return 'hsl(0, 0%, 70%)';
  return `hsl(${10 + (h % 45)}, 80%, ${55 + (h % 15)}%)`;
}

export function flameSvg(root: Box, title: string): string {
  const width = 1200;
  const row = 16;
  let depth = 0;
  const measure = (b: Box, d: number): void => {
    depth = Math.max(depth, d);
    for (const c of b.children.values()) measure(c, d + 1);
  };
  measure(root, 0);
  const height = (depth + 1) * row + 40;
  const out: string[] = [];
  const draw = (b: Box, x: number, d: number): void => {
    const w = (b.total / root.total) * (width - 20);
    if (w < 0.3) return;
    const y = height - (d + 1) * row - 10;
    const pct = ((100 * b.total) / root.total).toFixed(1);
    out.push(
      `<g><title>${escape(`${b.name} (${b.part || 'all'}): ${pct}% inclusive, ${((100 * b.self) / root.total).toFixed(1)}% self`)}</title>` +
        `<rect x="${(x + 10).toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${row - 1}" fill="${d === 0 ? '#ccc' : colour(b.part)}"/>` +
        (w > 40
          ? `<text x="${(x + 13).toFixed(1)}" y="${y + 11}">${escape(b.name.slice(0, Math.floor(w / 6.5)))}</text>`
          : '') +
        '</g>',
    );
    let cx = x;
    for (const c of [...b.children.values()].sort((p, q) => (p.name < q.name ? -1 : 1))) {
      draw(c, cx, d + 1);
      cx += (c.total / root.total) * (width - 20);
    }
  };
  draw(root, 0, 0);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace" font-size="10">` +
    `<text x="10" y="16" font-size="13">${escape(title)}</text>${out.join('')}</svg>\n`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { svg: { type: 'string' }, title: { type: 'string' } },
  });
  const file = positionals[0];
  if (file === undefined) {
    process.stderr.write('usage: npx tsx bench/probe/flame.ts PROFILE.cpuprofile [--svg OUT.svg] [--title TEXT]\n');
    process.exit(2);
  }
  const { root, parts, idle } = callTree(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  if (values.svg !== undefined) writeFileSync(values.svg, flameSvg(root, values.title ?? file));
  const busy = root.total;
  const lines = [
    `${file}: ${(busy / 1e6).toFixed(2)} s busy on the JavaScript thread, ${(idle / 1e6).toFixed(2)} s idle`,
  ];
  for (const [part, t] of [...parts].sort((a, b) => b[1] - a[1]).slice(0, 25))
    lines.push(`${((100 * t) / busy).toFixed(1).padStart(6)}%  ${part}`);
  if (values.svg !== undefined) lines.push(`flame graph: ${values.svg}`);
  // A reader that stops early (`| head`) is not an error.
  process.stdout.on('error', () => process.exit(0));
  process.stdout.write(`${lines.join('\n')}\n`);
}
