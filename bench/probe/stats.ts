// Small measurement helpers for the bench: human-readable sizes (the lateness sample lives in ours.mjs, the child).

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
