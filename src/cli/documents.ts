// Reads the inputs of `validate` and `migrate`: files, directories (their .yaml, .yml and .json files, recursively)
// and `-` for stdin, each split into its YAML documents (JSON is YAML), with List objects expanded.
// Unreadable or unparsable input is an InputError that names the file and the line; so is input this reader refuses
// to hold: a FIFO or device found in a directory (it would hang the run or fill the memory; one named is read as stdin
// is, bounded), a file larger than MAX_INPUT_BYTES, text that is not UTF-8, and aliases past MAX_YAML_ALIASES (an expansion bomb).
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments, type Document } from 'yaml';
import { GROUP, messageOf } from '@karmada-cluster-probe/schema/api';

export class InputError extends Error {}

export interface SourceFile {
  path: string;
  text: string;
  documents: Document.Parsed[];
}

/**
 * The most bytes of one input. `kubectl get clusters -o yaml` of 5,000 Clusters is about 10 MB; the reader and the
 * YAML documents take 30-40 times a file's size in memory.
 */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;
/** yaml's alias budget (nodes copied through aliases): its default of 100 refused a List whose 150 Clusters shared one labels anchor. */
export const MAX_YAML_ALIASES = 10_000;

/** How every input is parsed: YAML 1.1 merge keys (`<<`) as kubectl's go-yaml applies them. */
export const YAML_PARSE_OPTIONS = { prettyErrors: true, keepSourceTokens: true, merge: true } as const;

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** How an input is named in messages: its path, or `<stdin>`. */
export const nameOf = (path: string): string => (path === '-' ? '<stdin>' : path);

/** One document of an input in messages: `file` for the first, `file#N` for document N after it. */
export const documentLabel = (path: string, index: number): string => `${nameOf(path)}${index > 0 ? `#${index}` : ''}`;

function statProblem(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${path}: cannot read: no such file or directory (or a symlink to none)`;
  if (code === 'ELOOP') return `${path}: cannot read: a symlink loop`;
  return `${path}: cannot read: ${messageOf(err)}`;
}

/**
 * Expands directories into the manifest files beneath them, sorted, so results come in a stable order. A path that
 * cannot be read is a problem of its own; the others are still expanded. Symlinks are followed, each directory read
 * once (a link back up the tree is not a loop).
 */
export function expandPaths(paths: readonly string[]): { files: string[]; problems: string[] } {
  const files: string[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const visit = (p: string, named: boolean): void => {
    if (p === '-') {
      files.push(p);
      return;
    }
    let st;
    try {
      st = statSync(p);
    } catch (err) {
      problems.push(statProblem(p, err));
      return;
    }
    if (st.isDirectory()) {
      const id = `${st.dev}:${st.ino}`;
      if (seen.has(id)) return;
      seen.add(id);
      let entries: string[];
      try {
        entries = readdirSync(p);
      } catch (err) {
        problems.push(`${p}: cannot read the directory: ${messageOf(err)}`);
        return;
      }
      for (const child of entries.sort()) {
        const full = join(p, child);
        let childStat;
        try {
          childStat = statSync(full);
        } catch (err) {
          if (EXTENSIONS.has(extname(child))) problems.push(statProblem(full, err));
          continue;
        }
        if (childStat.isDirectory() || EXTENSIONS.has(extname(child))) visit(full, false);
      }
    } else if (st.isFile() || (named && (st.isFIFO() || st.isCharacterDevice())))
      // Named, a pipe is read as stdin is (`validate <(kubectl get clusters -o yaml)`), at most MAX_INPUT_BYTES.
      files.push(p);
    else
      problems.push(
        `${p}: not a regular file (a FIFO, socket or device)${named ? '' : ' in the directory'}; name files, directories, or - for stdin`,
      );
  };
  for (const p of paths) visit(p, true);
  return { files, problems };
}

/** Reads at most MAX_INPUT_BYTES + 1 bytes of `fd` (a pipe too), so a larger input is refused, not held. */
function readBounded(fd: number): Buffer {
  const chunks: Buffer[] = [];
  let size = 0;
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (err) {
      // stdin may be a non-blocking pipe or terminal: wait for it rather than fail.
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      throw err;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, n)));
    size += n;
    if (size > MAX_INPUT_BYTES) break;
  }
  return Buffer.concat(chunks, size);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text: UTF-8 (with or without a byte order mark), else an InputError saying what to do. */
export function decodeInput(path: string, bytes: Buffer): string {
  const name = nameOf(path);
  if (bytes.length > MAX_INPUT_BYTES)
    throw new InputError(
      `${name}: larger than ${MAX_INPUT_BYTES} bytes (MAX_INPUT_BYTES); split it into several files`,
    );
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)))
    throw new InputError(
      `${name}: UTF-16 text (it starts with a byte order mark); convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)`,
    );
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new InputError(`${name}: not UTF-8 text; convert it to UTF-8 (Kubernetes manifests are UTF-8)`);
  }
}

export function readSource(path: string, stdin: () => Buffer | string = () => readBounded(0)): SourceFile {
  let input: Buffer | string;
  try {
    if (path === '-') input = stdin();
    else {
      const fd = openSync(path, 'r');
      try {
        const st = fstatSync(fd);
        if (!st.isFile() && !st.isFIFO() && !st.isCharacterDevice())
          throw new InputError(`${path}: not a regular file (a FIFO, socket or device)`);
        input = readBounded(fd);
      } finally {
        closeSync(fd);
      }
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${nameOf(path)}: cannot read: ${messageOf(err)}`);
  }
  return parseSource(path, typeof input === 'string' ? input : decodeInput(path, input));
}

/** Splits a text into its YAML documents; the first syntax error is an InputError naming the file, line and column. */
export function parseSource(path: string, text: string): SourceFile {
  const name = nameOf(path);
  const documents = parseAllDocuments(text, YAML_PARSE_OPTIONS);
  if (!Array.isArray(documents)) return { path, text, documents: [] };
  for (const doc of documents) {
    const err = doc.errors[0];
    if (err !== undefined) {
      const where =
        err.linePos?.[0] === undefined ? '' : ` at line ${err.linePos[0].line}, column ${err.linePos[0].col}`;
      // yaml's message ends with the position again; say it once.
      const reason = (err.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      throw new InputError(`${name}: not valid YAML or JSON${where}: ${reason}`);
    }
  }
  return { path, text, documents };
}

/** A document's value, with the alias budget; past it an InputError naming the file and the document. */
export function documentValue(path: string, doc: Document.Parsed, index: number): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    const why = /alias count/i.test(messageOf(err)) ? ` (more than ${MAX_YAML_ALIASES} nodes through aliases)` : '';
    throw new InputError(`${documentLabel(path, index)}: not valid YAML or JSON: ${messageOf(err)}${why}`);
  }
}

/**
 * A Cluster of Karmada's group, or one whose apiVersion is not written (a fragment being checked); a Cluster of
 * another API (Cluster API's cluster.x-k8s.io, for one) is another kind of document and skipped.
 */
export function isKarmadaCluster(obj: { apiVersion?: unknown }): boolean {
  const apiVersion = obj.apiVersion;
  return apiVersion === undefined || (typeof apiVersion === 'string' && apiVersion.split('/', 1)[0] === GROUP);
}

export interface ObjectRef {
  /** Index of the YAML document in its file; for a List, of the List's document. */
  index: number;
  /** Position in the List's items, when the object came from a List. */
  item?: number;
  value: unknown;
}

/** The objects in a file: each non-empty document, with `kind: List` (kubectl get -o yaml) expanded into its items. */
export function objectsOf(source: SourceFile): ObjectRef[] {
  const out: ObjectRef[] = [];
  source.documents.forEach((doc, index) => {
    const value: unknown = documentValue(source.path, doc, index);
    if (value === null || value === undefined) return;
    const v = value as { kind?: unknown; items?: unknown };
    if (typeof v === 'object' && typeof v.kind === 'string' && v.kind.endsWith('List') && Array.isArray(v.items))
      v.items.forEach((item: unknown, i) => out.push({ index, item: i, value: item }));
    else out.push({ index, value });
  });
  return out;
}
