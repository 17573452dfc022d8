// The helpers every layer shares (docs/architecture.md, "Errors"): the text of a caught error and the test for a JSON
// object have one home, packages/schema/src/api/errors.ts (`messageOf`, `isRecord`). An inline copy in src/ fails here, with the file
// and line, so the copies cannot come back one at a time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

const HOME = join('src', 'api', 'errors.ts');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** Lines of src/ (outside the helpers' home) that match `pattern`, as `file:line: text`. */
function copies(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of tsFiles('src')) {
    if (file === HOME) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

// `e instanceof Error ? e.message : String(e)`, whatever the variable is called or however it is spaced.
export const MESSAGE_OF_COPY = /(\w+)\s+instanceof\s+Error\s*\?\s*\1\.message\s*:\s*String\(\s*\1\s*\)/;
// A type guard for a JSON object written again: `(v: unknown): v is Record<string, unknown>` or one that tests
// `typeof v === 'object' && v !== null && !Array.isArray(v)`.
export const IS_RECORD_COPY =
  /\(\s*(\w+)\s*:\s*unknown\s*\)\s*:\s*\1\s+is\s+Record<string,\s*unknown>|typeof\s+(\w+)\s*===\s*'object'\s*&&\s*\2\s*!==\s*null\s*&&\s*!Array\.isArray\(\s*\2\s*\)/;

describe('shared helpers', () => {
  it('no file of src/ writes messageOf again (import it from @karmada-cluster-probe/schema/api)', () => {
    expect(copies(MESSAGE_OF_COPY)).to.deep.equal([]);
  });

  it('no file of src/ writes isRecord again (import it from @karmada-cluster-probe/schema/api)', () => {
    expect(copies(IS_RECORD_COPY)).to.deep.equal([]);
  });

  it('recognises the copies it forbids, and not the helpers themselves', () => {
    expect(MESSAGE_OF_COPY.test('log({ err: err instanceof Error ? err.message : String(err) })')).to.equal(true);
    expect(MESSAGE_OF_COPY.test('super(cause instanceof Error ? cause.message : String(cause));')).to.equal(true);
    expect(MESSAGE_OF_COPY.test('log({ err: messageOf(err) })')).to.equal(false);
    expect(IS_RECORD_COPY.test('const isObj = (v: unknown): v is Obj => typeof v === "object"')).to.equal(false);
    expect(
      IS_RECORD_COPY.test(
        "const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);",
      ),
    ).to.equal(true);
    expect(IS_RECORD_COPY.test('function isObject(v: unknown): v is Record<string, unknown> {')).to.equal(true);
    expect(IS_RECORD_COPY.test('if (isRecord(value)) return value;')).to.equal(false);
  });
});
