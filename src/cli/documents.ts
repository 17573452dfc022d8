// Reads the inputs of `validate` and `migrate`: files, directories (their .yaml, .yml and .json files, recursively)
// and `-` for stdin, each split into its YAML documents (JSON is YAML), with List objects expanded.
// Unreadable or unparsable input is an InputError that names the file and the line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments, type Document } from 'yaml';
import { messageOf } from '../api/index.js';

export class InputError extends Error {}

export interface SourceFile {
  path: string;
  text: string;
  documents: Document.Parsed[];
}

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Expands directories into the manifest files beneath them, sorted, so results come in a stable order. */
export function expandPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (p === '-') {
      out.push(p);
      continue;
    }
    let st;
    try {
      st = statSync(p);
    } catch (err) {
      throw new InputError(
        `${p}: cannot read: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : String(err)}`,
      );
    }
    if (st.isDirectory()) {
      let entries;
      try {
        entries = readdirSync(p, { withFileTypes: true });
      } catch (err) {
        throw new InputError(`${p}: cannot read the directory: ${messageOf(err)}`);
      }
      const children = entries
        .filter((d) => d.isDirectory() || EXTENSIONS.has(extname(d.name)))
        .map((d) => join(p, d.name))
        .sort();
      out.push(...expandPaths(children));
    } else out.push(p);
  }
  return out;
}

export function readSource(path: string, stdin: () => string = () => readFileSync(0, 'utf8')): SourceFile {
  let text: string;
  try {
    text = path === '-' ? stdin() : readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError(`${path === '-' ? '<stdin>' : path}: cannot read: ${messageOf(err)}`);
  }
  return parseSource(path, text);
}

/** Splits a text into its YAML documents; the first syntax error is an InputError naming the file, line and column. */
export function parseSource(path: string, text: string): SourceFile {
  const name = path === '-' ? '<stdin>' : path;
  const documents = parseAllDocuments(text, { prettyErrors: true, keepSourceTokens: true });
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
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return;
    const v = value as { kind?: unknown; items?: unknown };
    if (typeof v === 'object' && typeof v.kind === 'string' && v.kind.endsWith('List') && Array.isArray(v.items))
      v.items.forEach((item: unknown, i) => out.push({ index, item: i, value: item }));
    else out.push({ index, value });
  });
  return out;
}
