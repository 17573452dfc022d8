// Fills the probe's defaults into files that show them, from the one table (schemas/liveness-probe.schema.json, read
// by probeFacts as probe-facts.ts is generated): each value that is a default carries a marker comment naming it, and
// `npm run generate` rewrites the value before the marker, `--check` (and test/unit/schema/generated.test.ts) fails
// while one is stale. The files stay what a user would read; only the marked values are written by the tool.
//
// In YAML (the `expect:` halves of test/fixtures/webhook/): `periodSeconds: 10 # default: periodSeconds`, a patch's
// `value: / # default: httpGet.path`, or a JSON probe in a string, `'{"tcpSocket":...,"periodSeconds":10}' # default:
// timeoutSeconds periodSeconds`, where each name is set at its path inside the JSON. In Markdown (docs), a span
// `<!-- default: periodSeconds -->10<!-- /default -->` holds the value (rendered, the comments are invisible).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { probeFacts } from './probe-facts.js';

/** Every default by name: `periodSeconds` (timing), `httpGet.path` (a handler's field). */
export function defaultsByName(): Map<string, unknown> {
  const facts = probeFacts();
  const out = new Map<string, unknown>();
  for (const t of facts.timing) if (t.default !== undefined) out.set(t.name, t.default);
  for (const [handler, fields] of Object.entries(facts.handlerDefaults))
    for (const [field, value] of Object.entries(fields)) out.set(`${handler}.${field}`, value);
  return out;
}

function lookup(defaults: Map<string, unknown>, name: string, where: string): unknown {
  if (!defaults.has(name)) throw new Error(`${where}: "${name}" is not a default of the probe schema`);
  return defaults.get(name);
}

function setAt(target: Record<string, unknown>, dotted: string, value: unknown, where: string): void {
  const keys = dotted.split('.');
  let node: Record<string, unknown> = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next))
      throw new Error(`${where}: the JSON has no object at "${key}" for "${dotted}"`);
    node = next as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

const PLAIN = /^[A-Za-z/][A-Za-z0-9/._-]*$/;
const YAML_WORDS = /^(true|false|null|yes|no|on|off|~)$/i;

function yamlScalar(value: unknown): string {
  if (typeof value === 'string') return PLAIN.test(value) && !YAML_WORDS.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

const YAML_MARKED = /^(\s*(?:-\s+)?[^\s#][^#]*?:\s)(.*?)(\s+# default: ([\w. ]+))$/;

/** A YAML text with every marked value set from `defaults`; `where` names the file in errors. */
export function fillYaml(text: string, defaults: Map<string, unknown>, where: string): string {
  return text
    .split('\n')
    .map((line, i) => {
      const m = YAML_MARKED.exec(line);
      if (m === null) return line;
      const [, head, valueText, marker, namesText] = m as unknown as [string, string, string, string, string];
      const at = `${where}:${i + 1}`;
      const names = namesText.trim().split(/\s+/);
      const current: unknown = parse(valueText);
      let next: string;
      if (typeof current === 'string' && current.trimStart().startsWith('{')) {
        const json = JSON.parse(current) as Record<string, unknown>;
        for (const name of names) setAt(json, name, lookup(defaults, name, at), at);
        const text = JSON.stringify(json);
        if (text === current) return line;
        next = `'${text.replace(/'/g, "''")}'`;
      } else {
        if (names.length !== 1) throw new Error(`${at}: a plain value names one default, got ${names.join(' ')}`);
        const value = lookup(defaults, names[0]!, at);
        if (JSON.stringify(current) === JSON.stringify(value)) return line;
        next = yamlScalar(value);
      }
      return `${head}${next}${marker}`;
    })
    .join('\n');
}

const MD_SPAN = /<!-- default: ([\w.]+) -->(.*?)<!-- \/default -->/g;
const MD_BLOCK = /^<!-- defaults in the next block: ([\w. ]+) -->$/;

/** A span's text with the value replaced: `N`, `` `N` `` or `` `key: N` `` (the value after the colon). */
function shownAs(shown: string, value: unknown): string {
  const keyed = /^`([^`:]+:\s*)(.*)`$/.exec(shown);
  if (keyed !== null) return `\`${keyed[1]}${yamlScalar(value)}\``;
  if (shown.startsWith('`')) return `\`${yamlScalar(value)}\``;
  return String(value);
}

/**
 * A Markdown text with every marked default set from `defaults`: an inline span, or, after a line
 * `<!-- defaults in the next block: NAMES -->`, each `"name":N` (JSON) and `name: N` (YAML) in the next fenced block.
 */
export function fillMarkdown(text: string, defaults: Map<string, unknown>, where: string): string {
  const lines = text.split('\n');
  let pending: string[] | undefined;
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const at = `${where}:${i + 1}`;
    const block = MD_BLOCK.exec(line);
    if (block !== null) {
      pending = block[1]!.trim().split(/\s+/);
      continue;
    }
    if (line.startsWith('```')) {
      if (inBlock) pending = undefined;
      inBlock = !inBlock;
      continue;
    }
    if (inBlock && pending !== undefined) {
      for (const name of pending) {
        const value = JSON.stringify(lookup(defaults, name, at));
        const key = name.split('.').pop()!;
        line = line
          .replace(new RegExp(`("${key}":)(-?[\\d.]+|"[^"]*")`, 'g'), `$1${value}`)
          .replace(new RegExp(`(\\b${key}: )(-?[\\d.]+)\\b`, 'g'), `$1${value}`);
      }
      lines[i] = line;
      continue;
    }
    lines[i] = line.replace(MD_SPAN, (whole, name: string, shown: string) => {
      const next = shownAs(shown, lookup(defaults, name, at));
      return next === shown ? whole : `<!-- default: ${name} -->${next}<!-- /default -->`;
    });
  }
  return lines.join('\n');
}

/** The files under `dir` (not recursive) ending in `ext` that carry a marker, by repository path, filled. */
export function filledFiles(dir: string, ext: '.yaml' | '.md'): Record<string, string> {
  const defaults = defaultsByName();
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(ext)) continue;
    const file = path.join(dir, name);
    const text = readFileSync(file, 'utf8');
    if (!text.includes(ext === '.yaml' ? '# default: ' : '<!-- default: ')) continue;
    out[file] = ext === '.yaml' ? fillYaml(text, defaults, file) : fillMarkdown(text, defaults, file);
  }
  return out;
}
