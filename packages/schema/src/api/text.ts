// Small text operations more than one layer needs, written as scans: a pattern such as `/\/+$/` retries its run from
// every position, which is quadratic on a long run followed by another character. Pure.

/** `s` without the slashes it ends with (`/a//` -> `/a`). */
export function trimTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2f) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** `text` cut to at most `max` characters, ending in `...` when cut, never between the halves of a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 3;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}...`;
}
