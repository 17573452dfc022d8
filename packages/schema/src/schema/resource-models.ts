// Karmada's ValidateClusterResourceModels (pkg/apis/cluster/validation): grades unique and increasing, the same
// resources in every model, ranges contiguous from 0 to MaxInt64. A fast path settles the common case without
// allocating (with two module-level buffers it reuses), the slow path words every problem; the two are held to one
// verdict by test/unit/schema/resource-models-fast-path.test.ts. Pure: no I/O.
import { isRecord } from '../api/index.js';
import { fieldErrors, type FieldError, type FieldPath } from './field-error.js';
import { MAX_INT64_NANO, parseQuantity, QUANTITY_ERROR } from './quantity.js';

/**
 * The common case, checked without allocating: grades strictly increasing, every rule of Karmada's met. When this
 * says no, resourceModelProblems works out and words every problem; it must never say yes where that would object
 * (test/unit/schema/resource-models-fast-path.test.ts holds the two to the same verdict). Exported for that test.
 */
export function resourceModelsPlainlyValid(models: unknown[]): boolean {
  let prev: unknown[] | undefined;
  let prevGrade = -Infinity;
  const last = models.length - 1;
  for (let i = 0; i < models.length; i++) {
    const m = models[i];
    if (!isRecord(m) || typeof m.grade !== 'number' || m.grade <= prevGrade || !Array.isArray(m.ranges)) return false;
    const ranges = m.ranges as unknown[];
    if (prev !== undefined && prev.length !== ranges.length) return false;
    for (let j = 0; j < ranges.length; j++) {
      const r = ranges[j];
      if (!isRecord(r) || typeof r.name !== 'string') return false;
      // The usual spellings are settled by identity, without a memo lookup: "0" opens the first model, a min written
      // as the previous model's max continues it (that max, parsed, is carried over), MaxInt64 in digits closes the
      // last model. Any other spelling is parsed and compared as before.
      const rmin = r.min;
      const rmax = r.max;
      let min: bigint | undefined;
      if (prev === undefined) {
        min = rmin === '0' || rmin === 0 ? 0n : parseQuantity(rmin);
        if (min !== 0n) return false;
      } else {
        const pr = prev[j];
        if (!isRecord(pr) || pr.name !== r.name) return false;
        if (pr.max === rmin) min = prevMaxes[j];
        else {
          min = parseQuantity(rmin);
          if (min === undefined || parseQuantity(pr.max) !== min) return false;
        }
      }
      if (min === undefined) return false;
      let max: bigint | undefined;
      if (i !== last) max = parseQuantity(rmax);
      else if (rmax === MAX_INT64_TEXT) max = MAX_INT64_NANO;
      else {
        max = parseQuantity(rmax);
        if (max !== MAX_INT64_NANO) return false;
      }
      if (max === undefined || max <= min) return false;
      maxes[j] = max;
    }
    prev = ranges;
    prevGrade = m.grade;
    const t = prevMaxes;
    prevMaxes = maxes;
    maxes = t;
  }
  return true;
}

// The parsed maxes of the previous model and of this one, reused across calls (the pass is synchronous and calls
// nothing that could re-enter it); prevMaxes[j] is read only after this call's previous model wrote it.
let prevMaxes: (bigint | undefined)[] = [];
let maxes: (bigint | undefined)[] = [];
const MAX_INT64_TEXT = '9223372036854775807';

/** Karmada's ValidateClusterResourceModels, reporting each problem at the range it is about. */
export function resourceModelErrors(models: unknown[], path: FieldPath): FieldError[] {
  if (resourceModelsPlainlyValid(models)) return [];
  return resourceModelProblems(models, path);
}

/** Every problem of the resource models, worked out in full (the slow path; exported for the fast path's test). */
export function resourceModelProblems(models: unknown[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const grades = new Map<unknown, number>();
  models.forEach((m, i) => {
    if (!isRecord(m)) return;
    if (grades.has(m.grade))
      errors.push(
        fieldErrors.duplicate(
          path.index(i).child('grade'),
          m.grade,
          `the grade of each model must be unique (see spec.resourceModels[${String(grades.get(m.grade))}])`,
        ),
      );
    else grades.set(m.grade, i);
  });
  if (errors.length > 0) return errors;
  const sorted: { m: Record<string, unknown>; i: number }[] = [];
  let inOrder = true;
  for (let i = 0; i < models.length; i++) {
    const m = models[i];
    if (!isRecord(m) || typeof m.grade !== 'number' || !Array.isArray(m.ranges)) continue;
    const last = sorted[sorted.length - 1];
    if (last !== undefined && (last.m.grade as number) > m.grade) inOrder = false;
    sorted.push({ m, i });
  }
  if (!inOrder) sorted.sort((a, b) => (a.m.grade as number) - (b.m.grade as number));
  sorted.forEach(({ m, i }, pos) => {
    const prev = pos > 0 ? sorted[pos - 1] : undefined;
    const ranges = m.ranges as unknown[];
    const rp = path.index(i).child('ranges');
    if (prev !== undefined && (prev.m.ranges as unknown[]).length !== ranges.length) {
      errors.push(
        fieldErrors.invalid(
          rp,
          ranges.length,
          `the number of resource types must be the same in every model (grade ${String(prev.m.grade)} has ${(prev.m.ranges as unknown[]).length})`,
        ),
      );
      return;
    }
    ranges.forEach((r, j) => {
      if (!isRecord(r)) return;
      const p = rp.index(j);
      const min = parseQuantity(r.min);
      const max = parseQuantity(r.max);
      if (min === undefined && r.min !== undefined)
        errors.push(fieldErrors.invalid(p.child('min'), r.min, QUANTITY_ERROR));
      if (max === undefined && r.max !== undefined)
        errors.push(fieldErrors.invalid(p.child('max'), r.max, QUANTITY_ERROR));
      if (min === undefined || max === undefined) return;
      if (max <= min) errors.push(fieldErrors.invalid(p.child('max'), r.max, 'must be greater than min'));
      if (prev === undefined) {
        if (min !== 0n)
          errors.push(fieldErrors.invalid(p.child('min'), r.min, 'must be 0 in the first model (ranges start at 0)'));
      } else {
        const pr = (prev.m.ranges as unknown[])[j];
        if (!isRecord(pr)) return;
        if (pr.name !== r.name)
          errors.push(
            fieldErrors.invalid(
              p.child('name'),
              r.name,
              `must be ${JSON.stringify(pr.name)}, as in grade ${String(prev.m.grade)}: every model lists the same resources in the same order`,
            ),
          );
        else if (parseQuantity(pr.max) !== min)
          errors.push(
            fieldErrors.invalid(
              p.child('min'),
              r.min,
              `must equal the max of ${String(r.name)} in grade ${String(prev.m.grade)} (${String(pr.max)}): ranges must be contiguous and non-overlapping`,
            ),
          );
      }
      if (pos === sorted.length - 1 && max !== MAX_INT64_NANO)
        errors.push(
          fieldErrors.invalid(p.child('max'), r.max, 'must be 9223372036854775807 (MaxInt64) in the last model'),
        );
    });
  });
  return errors;
}
