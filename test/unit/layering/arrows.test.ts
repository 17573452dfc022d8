// The arrows of docs/architecture.md, checked on the import lines. From the bottom: src/api (names, the probe's
// generated types and facts, error helpers) imports nothing; src/address (the one address policy) neither; src/schema
// and src/probe stand on those two and never on each other, so the engine can be used without the schema library;
// src/certs and src/kube (the generic Kubernetes client) are leaves over src/api; src/deploy (the install's manifests
// and the CRD guard) uses the schema's names; src/webhook uses schema and certs, src/reconciler schema, probe and
// kube; src/dev (the local control planes) is for the CLI and the tests; src/cli may use them all.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

const ALLOWED: Record<string, string[]> = {
  api: [],
  address: [],
  schema: ['api', 'address'],
  probe: ['api', 'address'],
  certs: ['api'],
  kube: ['api'],
  deploy: ['api', 'schema'],
  webhook: ['api', 'schema', 'certs'],
  reconciler: ['api', 'schema', 'probe', 'kube'],
  dev: ['api'],
  cli: ['api', 'schema', 'probe', 'webhook', 'reconciler', 'kube', 'deploy', 'certs', 'dev'],
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('module arrows', () => {
  it('knows every folder of src/ (a new layer must say what it may import)', () => {
    const layers = readdirSync('src', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(layers).to.have.members(Object.keys(ALLOWED));
  });
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
