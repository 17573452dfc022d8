// The arrows of docs/architecture.md, checked on the import lines. Two packages and the application:
// - @karmada-cluster-probe/schema (packages/schema/src): api (names, the probe's generated types and facts, error
//   helpers) and address (the one address policy) import nothing; schema stands on those two. It imports no other
//   package of ours and nothing of the application.
// - @karmada-cluster-probe/probe (packages/probe/src): the engine, on the schema package's `./api` and `./address`
//   entries only (held file by file in test/unit/probe/layering.test.ts), never on the validators.
// - the application (src/): certs and kube (the generic Kubernetes client) are leaves over api; deploy (the install's
//   manifests and the CRD guard) uses the schema's names; webhook uses schema and certs, reconciler schema, probe and
//   kube; dev (the local control planes) is for the CLI and the tests; cli may use them all; public re-exports the two
//   packages as the application's `./schema` and `./probe` subpaths; facts (the reconciler's metric names and
//   disruption defaults, which no package needs) imports nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { expect } from 'chai';

const SCHEMA_PKG = '@karmada-cluster-probe/schema';
const PROBE_PKG = '@karmada-cluster-probe/probe';

/** The layer a package specifier names: the schema package's entries are the layers api, address and schema. */
function packageLayer(spec: string): string | undefined {
  if (spec === PROBE_PKG || spec.startsWith(`${PROBE_PKG}/`)) return 'probe';
  if (spec === SCHEMA_PKG) return 'schema';
  if (!spec.startsWith(`${SCHEMA_PKG}/`)) return undefined;
  const rest = spec.slice(SCHEMA_PKG.length + 1).replace(/^internal\//, '');
  return rest.split('/')[0];
}

const SCHEMA_LAYERS: Record<string, string[]> = { api: [], address: [], schema: ['api', 'address'] };

const APP_LAYERS: Record<string, string[]> = {
  facts: [],
  certs: ['api'],
  kube: ['api'],
  deploy: ['api', 'facts', 'schema'],
  webhook: ['api', 'facts', 'schema', 'certs'],
  reconciler: ['api', 'facts', 'schema', 'probe', 'kube'],
  dev: ['api'],
  profile: ['api', 'facts', 'schema', 'kube'],
  cli: ['api', 'facts', 'schema', 'probe', 'webhook', 'reconciler', 'kube', 'deploy', 'certs', 'dev', 'profile'],
  public: ['schema', 'probe'],
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? '');
}

function layersIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
}

describe('module arrows', () => {
  it('knows every folder of src/ and of the schema package (a new layer must say what it may import)', () => {
    expect(layersIn('src')).to.have.members(Object.keys(APP_LAYERS));
    expect(layersIn(join('packages', 'schema', 'src'))).to.have.members(Object.keys(SCHEMA_LAYERS));
  });

  for (const [layer, allowed] of Object.entries(SCHEMA_LAYERS)) {
    it(`the schema package's ${layer} imports only ${allowed.length === 0 ? 'itself' : `itself and ${allowed.join(', ')}`}, no package of ours`, () => {
      const files = tsFiles(join('packages', 'schema', 'src', layer));
      expect(files.length, `${layer} has modules`).to.be.greaterThan(0);
      for (const file of files) {
        for (const spec of specifiers(file)) {
          expect(spec, `${file} imports ${spec}`).not.to.match(/^@karmada-cluster-probe\//);
          if (!spec.startsWith('../')) continue;
          // The JSON Schemas of schemas/ are data every layer may read.
          if (spec.startsWith('../../schemas/')) continue;
          expect(allowed, `${file} imports ${spec}`).to.include(spec.split('/')[1] ?? '');
        }
      }
    });
  }

  for (const [layer, allowed] of Object.entries(APP_LAYERS)) {
    it(`src/${layer} imports only ${`itself and ${allowed.join(', ')}`}`, () => {
      const files = tsFiles(join('src', layer));
      expect(files.length, `src/${layer} has modules`).to.be.greaterThan(0);
      for (const file of files) {
        for (const spec of specifiers(file)) {
          // A relative import is resolved from the importing file, so that a layer's subfolders are held too.
          const target = spec.startsWith('.')
            ? relative('src', resolve(dirname(file), spec)).split(sep)[0]
            : packageLayer(spec);
          if (target === undefined || target === layer) continue;
          expect(allowed, `${file} imports ${spec}`).to.include(target);
        }
      }
    });
  }

  it("docs/architecture.md's layer table says what each application layer may import, as this file holds it", () => {
    const doc = readFileSync('docs/architecture.md', 'utf8');
    const said = new Map<string, string[]>();
    for (const m of doc.matchAll(/^\| `src\/([a-z]+)` \|.*\| ([^|]+) \|$/gm)) {
      const words = m[2]!.trim();
      said.set(
        m[1]!,
        words === 'nothing' ? [] : words === 'all of the above' ? ['*'] : words.split(/,\s*/).map((w) => w.trim()),
      );
    }
    for (const [layer, allowed] of Object.entries(APP_LAYERS)) {
      const doc = said.get(layer);
      expect(doc, `a row for src/${layer}`).to.not.equal(undefined);
      if (doc![0] === '*') continue;
      expect([...doc!].sort(), `src/${layer}`).to.deep.equal([...allowed].sort());
    }
  });

  it('the application reaches the packages by name, never by a path into packages/', () => {
    for (const file of tsFiles('src')) {
      for (const spec of specifiers(file)) expect(spec, `${file} imports ${spec}`).not.to.match(/packages\//);
    }
  });
});
