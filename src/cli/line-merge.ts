// Carries an edit made on a re-rendering of a file back onto the file's own text, line by line, so that every line the
// edit did not touch keeps its bytes (spacing, quoting, flow style, line endings). A three-way merge with the rendering
// before the edit as the base: the file's differences from it are kept, the edit's differences are applied.
// Pure: strings in, string out; knows nothing of YAML or JSON (the caller checks the result still parses the same).

/** Base lines [start, end) correspond to the other side's lines [oStart, oEnd). */
export interface Hunk {
  start: number;
  end: number;
  oStart: number;
  oEnd: number;
}

/** Gives up beyond this many differing lines: the caller falls back to the plain rendering. */
const MAX_EDIT_DISTANCE = 4000;

/**
 * The hunks turning `a` into `b` (Myers' O((N+M)D) greedy diff after trimming the common prefix and suffix), or
 * undefined when more than `maxDistance` lines differ.
 */
export function diffLines(
  a: readonly string[],
  b: readonly string[],
  maxDistance = MAX_EDIT_DISTANCE,
): Hunk[] | undefined {
  let lo = 0;
  while (lo < a.length && lo < b.length && a[lo] === b[lo]) lo++;
  let aHi = a.length;
  let bHi = b.length;
  while (aHi > lo && bHi > lo && a[aHi - 1] === b[bHi - 1]) {
    aHi--;
    bHi--;
  }
  const n = aHi - lo;
  const m = bHi - lo;
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0) return [{ start: lo, end: aHi, oStart: lo, oEnd: bHi }];
  const max = Math.min(n + m, maxDistance);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[lo + x] === b[lo + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;
  // Walk back through the saved frontiers, collecting the diagonal runs (equal lines) from the end.
  const equal: [number, number, number][] = []; // [x, y, length] in trimmed coordinates
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const saved = trace[d] as Int32Array; // v before step d, indices k in [-d-1, d+1] at k + d + 1
    const at = (k: number): number => saved[k + d + 1] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    const startX = down ? prevX : prevX + 1;
    const startY = startX - k;
    if (x > startX) equal.push([startX, startY, x - startX]);
    x = prevX;
    y = prevY;
  }
  if (x > 0) equal.push([0, 0, x]);
  equal.reverse();
  const hunks: Hunk[] = [];
  let ax = 0;
  let by = 0;
  for (const [ex, ey, len] of [...equal, [n, m, 0] as [number, number, number]]) {
    if (ex > ax || ey > by) hunks.push({ start: lo + ax, end: lo + ex, oStart: lo + by, oEnd: lo + ey });
    ax = ex + len;
    by = ey + len;
  }
  return hunks;
}

/** A line of the original text without its terminator, and the terminator it had ('' for a last line without one). */
interface Line {
  text: string;
  eol: string;
}

function splitOriginal(text: string): Line[] {
  const out: Line[] = [];
  for (const m of text.matchAll(/([^\n]*?)(\r?\n|$)/g)) {
    if (m[0] === '' && m.index === text.length) break;
    out.push({ text: m[1] ?? '', eol: m[2] ?? '' });
  }
  return out;
}

function splitRendering(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Does hunk `a` overlap hunk `b` in the base? An insertion overlaps a change only strictly inside it. */
function overlaps(a: Hunk, b: Hunk): boolean {
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  if (a.start === a.end) return b.start < a.start && a.start < b.end;
  if (b.start === b.end) return a.start < b.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

/**
 * `original` with the change from `before` to `after` applied (both renderings, '\n'-terminated). Lines the change
 * does not touch keep their bytes and terminators; new lines end with `eol`; the text ends with a line break exactly
 * when `original` did (or was empty). Undefined when the change and the file's own formatting touch the same lines.
 */
export function mergeEdit(original: string, before: string, after: string, eol: string): string | undefined {
  const orig = splitOriginal(original);
  const base = splitRendering(before);
  const edited = splitRendering(after);
  const ours = diffLines(
    base,
    orig.map((l) => l.text.replace(/\r$/, '')),
  );
  const theirs = diffLines(base, edited);
  if (ours === undefined || theirs === undefined) return undefined;
  const out: Line[] = [];
  let i = 0; // base line
  let j = 0; // original line
  let oi = 0;
  let ti = 0;
  const copyTo = (baseLine: number): void => {
    for (; i < baseLine; i++, j++) out.push(orig[j] as Line);
  };
  while (oi < ours.length || ti < theirs.length) {
    const o = ours[oi];
    const t = theirs[ti];
    if (o !== undefined && t !== undefined && overlaps(o, t)) return undefined;
    // The earlier hunk first; at the same start, an insertion before a change of the line it precedes.
    const takeTheirs =
      t !== undefined && (o === undefined || t.start < o.start || (t.start === o.start && t.start === t.end));
    if (takeTheirs) {
      copyTo(t.start);
      for (let k = t.oStart; k < t.oEnd; k++) out.push({ text: edited[k] ?? '', eol });
      j += t.end - t.start;
      i = t.end;
      ti++;
    } else if (o !== undefined) {
      copyTo(o.start);
      for (let k = o.oStart; k < o.oEnd; k++) out.push(orig[k] as Line);
      j = o.oEnd;
      i = o.end;
      oi++;
    }
  }
  copyTo(base.length);
  const endsWithBreak = orig.length === 0 || (orig[orig.length - 1] as Line).eol !== '';
  return out.map((l, k) => l.text + (k < out.length - 1 || endsWithBreak ? l.eol || eol : '')).join('');
}
