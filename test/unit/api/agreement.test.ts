// One source for every fact (issue 11): the handler list, the probe's defaults and the default deny list are stated
// once (schemas/liveness-probe.schema.json and src/address), and the schema library, the probe engine, the generated
// table in src/api and the CRD in manifests/crd must all say the same. This test reads each of them on its own, so a
// change made in one place only (a default edited in the CRD, a handler added to the engine, a range added to a doc)
// fails here.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';
import {
  HANDLER_DEFAULTS,
  HANDLERS,
  TIMING_DEFAULTS,
  TIMING_FIELDS,
  TIMING_MINIMUMS,
} from '../../../packages/schema/src/api/index.js';
import { DEFAULT_DENY_CIDRS as ADDRESS_DENY } from '../../../packages/schema/src/address/index.js';
import {
  DEFAULT_DENY_CIDRS as SCHEMA_DENY,
  HANDLERS as SCHEMA_LIBRARY_HANDLERS,
  defaultProbe,
  validateProbe,
  type SchemaNode,
} from '../../../packages/schema/src/schema/index.js';
import {
  DEFAULT_DENY_LIST as ENGINE_DENY,
  handlerOf,
  PROBE_DEFAULTS,
  resolveTiming,
  type LivenessProbe,
} from '../../../packages/probe/src/index.js';
import { probeFacts } from '../../../scripts/generate/probe-facts.js';

const read = (path: string): string => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

// The schema as written on disk (not through any module of the project).
const schemaOnDisk = JSON.parse(read('schemas/liveness-probe.schema.json')) as SchemaNode;
const fromSchema = probeFacts(schemaOnDisk);

interface CrdNode extends SchemaNode {
  properties?: Record<string, CrdNode>;
}
const crd = parse(read('manifests/crd/cluster.karmada.io_clusters.yaml')) as {
  spec: { versions: { schema: { openAPIV3Schema: CrdNode } }[] };
};
const crdProbes = crd.spec.versions.map((v) => v.schema.openAPIV3Schema.properties?.spec?.properties?.livenessProbe);
const fromCrd = crdProbes.map((p) => {
  expect(p, 'the CRD has spec.livenessProbe').not.to.equal(undefined);
  return probeFacts(p);
});

const timingDefaults = (facts: ReturnType<typeof probeFacts>): Record<string, number> =>
  Object.fromEntries(facts.timing.flatMap((t) => (t.default === undefined ? [] : [[t.name, t.default]])));

/** A probe with every handler field and timing left out: what each side fills in is its defaults. */
const bare: Record<string, LivenessProbe> = {
  httpGet: { httpGet: { host: 'h.example.com', port: 80 } },
  tcpSocket: { tcpSocket: { host: 'h.example.com', port: 80 } },
  grpc: { grpc: { host: 'h.example.com', port: 80 } },
  apiServer: { apiServer: {} },
};

describe('one source for every fact: schema, src/api, engine and CRD agree', () => {
  describe('the handler list', () => {
    it('src/api (and the schema library that re-exports it) lists the schema handlers, in order', () => {
      expect([...HANDLERS]).to.deep.equal(fromSchema.handlers);
      expect(SCHEMA_LIBRARY_HANDLERS).to.equal(HANDLERS);
    });

    it("the schema's own CEL rules name exactly those handlers", () => {
      for (const rule of schemaOnDisk['x-kubernetes-validations'] ?? []) {
        const named = [...rule.rule.matchAll(/has\(self\.(\w+)\)/g)].map((m) => m[1]);
        expect(named, rule.message).to.deep.equal(fromSchema.handlers);
      }
    });

    it('the CRD declares the same handlers and the same one-handler rules', () => {
      for (const [i, facts] of fromCrd.entries()) {
        expect(facts.handlers, `CRD version ${i}`).to.deep.equal(fromSchema.handlers);
        expect(crdProbes[i]?.['x-kubernetes-validations']).to.deep.equal(schemaOnDisk['x-kubernetes-validations']);
      }
    });

    it('the engine runs each of them, and only one at a time', () => {
      for (const h of fromSchema.handlers) {
        const probe = bare[h];
        expect(probe, `a bare probe for ${h} in this test`).not.to.equal(undefined);
        expect(handlerOf(probe ?? {}), h).to.deep.equal({ ok: true, name: h });
      }
      const none = handlerOf({});
      expect(none.ok).to.equal(false);
      if (!none.ok) expect(none.message).to.contain(`(${fromSchema.handlers.join(', ')})`);
      expect(handlerOf({ ...bare.httpGet, ...bare.grpc }).ok).to.equal(false);
    });
  });

  describe('the defaults', () => {
    it('src/api holds the schema timing defaults and minimums', () => {
      expect(TIMING_DEFAULTS).to.deep.equal(timingDefaults(fromSchema));
      expect([...TIMING_FIELDS]).to.deep.equal(fromSchema.timing.map((t) => t.name));
      expect(TIMING_MINIMUMS).to.deep.equal(Object.fromEntries(fromSchema.timing.map((t) => [t.name, t.minimum])));
      expect(HANDLER_DEFAULTS).to.deep.equal(fromSchema.handlerDefaults);
    });

    it('the CRD declares the same defaults', () => {
      for (const [i, facts] of fromCrd.entries()) {
        expect(timingDefaults(facts), `CRD version ${i}`).to.deep.equal(timingDefaults(fromSchema));
        expect(facts.handlerDefaults, `CRD version ${i}`).to.deep.equal(fromSchema.handlerDefaults);
      }
    });

    it("the engine runs a probe that sets no timing with the schema's defaults (Go's zero value elsewhere)", () => {
      const expected = Object.fromEntries(fromSchema.timing.map((t) => [t.name, t.default ?? 0]));
      expect(PROBE_DEFAULTS).to.deep.equal(expected);
      expect(resolveTiming({ tcpSocket: { port: 80 } })).to.deep.equal(expected);
      // Below the schema's minimum, the engine falls back to the default rather than run a 0 s period.
      const tooSmall = Object.fromEntries(fromSchema.timing.map((t) => [t.name, t.minimum - 1]));
      expect(resolveTiming(tooSmall)).to.deep.equal(expected);
    });

    it("the schema library's defaulting fills in exactly the schema's defaults, nothing else", () => {
      for (const h of fromSchema.handlers) {
        const probe: unknown = bare[h];
        const defaulted = defaultProbe(probe) as Record<string, unknown>;
        const handlerFields = { ...(probe as Record<string, object>)[h], ...fromSchema.handlerDefaults[h] };
        expect(defaulted, h).to.deep.equal({ [h]: handlerFields, ...timingDefaults(fromSchema) });
      }
    });

    it('a probe carrying exactly the defaults is left alone (no drift)', () => {
      const full = defaultProbe(bare.tcpSocket);
      expect(defaultProbe(full)).to.deep.equal(full);
      expect(validateProbe(full, { denyHosts: [] }).errors).to.deep.equal([]);
    });
  });

  describe('the default deny list', () => {
    it('the schema library and the engine use the address policy list itself', () => {
      expect(SCHEMA_DENY).to.equal(ADDRESS_DENY);
      expect(ENGINE_DENY).to.equal(ADDRESS_DENY);
    });

    it('docs/probe.md shows that list', () => {
      const doc = read('docs/probe.md');
      const block = /by default[^]*?```\n([^`]+)```|DEFAULT_DENY_CIDRS[^]*?```\n([^`]+)```/.exec(doc);
      const shown = (block?.[1] ?? block?.[2] ?? '').trim().split(/\s+/);
      expect(shown).to.deep.equal([...ADDRESS_DENY]);
    });
  });
});
