// The Cluster CRD as the local control plane installs it. The apiserver accepts at the root `metadata` of a CRD
// schema nothing but `type: object` (and name/generateName); anything else there makes the whole CRD invalid, so
// such keys are dropped here, and each drop is reported so the generator can be fixed rather than papered over.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

export interface LoadableCrd {
  /** The CRD as YAML the apiserver accepts. */
  text: string;
  /** What was dropped, e.g. `spec.versions[0].schema.openAPIV3Schema.properties.metadata.description`. */
  dropped: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function loadableCrd(text: string): LoadableCrd {
  const dropped: string[] = [];
  const docs: unknown[] = [];
  for (const doc of parseAllDocuments(text)) {
    const crd: unknown = doc.toJS();
    if (crd === null || crd === undefined) continue;
    const versions = isRecord(crd) && isRecord(crd.spec) && Array.isArray(crd.spec.versions) ? crd.spec.versions : [];
    versions.forEach((version: unknown, i) => {
      if (!isRecord(version) || !isRecord(version.schema) || !isRecord(version.schema.openAPIV3Schema)) return;
      const root = version.schema.openAPIV3Schema;
      const metadata = isRecord(root.properties) ? root.properties.metadata : undefined;
      if (!isRecord(metadata)) return;
      for (const key of Object.keys(metadata)) {
        if (key === 'type') continue;
        if (key === 'properties' && isRecord(metadata.properties)) {
          const extra = Object.keys(metadata.properties).filter((p) => p !== 'name' && p !== 'generateName');
          if (extra.length === 0) continue;
        }
        delete metadata[key];
        dropped.push(`spec.versions[${i}].schema.openAPIV3Schema.properties.metadata.${key}`);
      }
    });
    docs.push(crd);
  }
  if (dropped.length === 0) return { text, dropped };
  return { text: docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n'), dropped };
}

/** Writes the loadable form of the CRD at `path` into `dir` and returns the new file's path and what was dropped. */
export function writeLoadableCrd(path: string, dir: string): { path: string; dropped: string[] } {
  const { text, dropped } = loadableCrd(readFileSync(path, 'utf8'));
  const out = join(dir, 'crd.yaml');
  writeFileSync(out, text);
  return { path: out, dropped };
}
