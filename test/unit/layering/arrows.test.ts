// The arrows of DESIGN.md, checked on the import lines: cli -> webhook|reconciler -> schema|probe, schema and probe
// import nothing of the others; the webhook also uses src/certs (its certificate source and hot reload), a leaf.
// src/address (the one address policy) is a leaf under both schema and probe, so admission and connect time share it.
// src/dev (the local control plane) is used by the CLI and the tests only. src/api (facts and helpers every layer
// shares) is the bottom leaf; src/kube (the generic Kubernetes client) is used by the reconciler and the CLI.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

const ALLOWED: Record<string, string[]> = {
  api: [],
  address: [],
  schema: ['api', 'address'],
  probe: ['api', 'address'],
  certs: ['api'],
  webhook: ['api', 'schema', 'certs'],
  reconciler: ['api', 'schema', 'probe', 'kube'],
  dev: ['api'],
  cli: ['api', 'schema', 'probe', 'webhook', 'reconciler', 'kube', 'certs', 'dev'],
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('module arrows', () => {
  for (const [layer, allowed] of Object.entries(ALLOWED)) {
    it(`src/${layer} imports only ${allowed.length === 0 ? 'itself' : `itself and ${allowed.join(', ')}`}`, () => {
      const files = tsFiles(join('src', layer));
      expect(files.length, `src/${layer} has modules`).to.be.greaterThan(0);
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"](\.\.\/[^'"]+)['"]/gm)) {
          const target = (m[1] ?? '').split('/')[1] ?? '';
          // The JSON Schemas of schemas/ are data every layer may read.
          if ((m[1] ?? '').startsWith('../../schemas/')) continue;
          expect(allowed, `${file} imports ${m[1]}`).to.include(target);
        }
      }
    });
  }
});
