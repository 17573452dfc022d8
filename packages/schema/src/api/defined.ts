// Options objects built from optional values: `definedFields({ a, b })` keeps only the keys whose value is defined, in
// one call where a conditional spread (`...(a !== undefined ? { a } : {})`) was written per key. An absent key and an
// undefined one differ to a receiver that spreads the options over its defaults, asks `'a' in options`, or compares
// deeply, so the keys are dropped rather than set to undefined (tsconfig has exactOptionalPropertyTypes off, so the
// compiler would not tell). Pure.

/** The fields of `fields` whose values are not undefined (a new object; `fields` is not changed). */
export function definedFields<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
