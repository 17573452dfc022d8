// probeRules reads the handlers by name (a fast path for the usual probe with exactly one), while the handler list is
// stated once, in schemas/liveness-probe.schema.json (src/api's HANDLERS is generated from it). These tests read the
// schema on disk, so a handler added there that probeRules does not check, or a fast path that counts handlers
// differently from the schema's list, fails here.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { FieldPath } from '../../../packages/schema/src/schema/field-error.js';
import { probeRules, type ProbeContext } from '../../../packages/schema/src/schema/probe-rules.js';
import type { SchemaNode } from '../../../packages/schema/src/schema/index.js';
import { probeFacts } from '../../../scripts/generate/probe-facts.js';

const schemaOnDisk = JSON.parse(
  readFileSync(new URL('../../../schemas/liveness-probe.schema.json', import.meta.url), 'utf8'),
) as SchemaNode;
const handlers = probeFacts(schemaOnDisk).handlers;

const BASE = FieldPath.root('spec').child('livenessProbe');
const ctx: ProbeContext = { apiEndpointHost: 'api.example.com', syncMode: 'Push', hasSecretRef: true };

/** A handler body breaking the rules every handler shares (a port, a host, a path): probeRules must object. */
const BROKEN = { port: 0, host: '0.0.0.0', path: 'relative' };
/** A handler body with nothing to object to, for whichever handler it is given as. */
const FINE = { port: 80, host: 'probe.example.com', path: '/healthz' };

const messages = (probe: unknown): string[] => probeRules(probe, BASE, ctx).errors.map((e) => e.message);

/** Every subset of the schema's handlers, in the schema's order. */
const subsets = (names: string[]): string[][] =>
  names.reduce<string[][]>((acc, h) => [...acc, ...acc.map((s) => [...s, h])], [[]]);

describe('probeRules and the schema handler list', () => {
  it('the schema has handlers (the tests below are not vacuous)', () => {
    expect(handlers.length).to.be.greaterThan(1);
  });

  for (const h of handlers)
    it(`checks the ${h} handler of the schema (errors under spec.livenessProbe.${h})`, () => {
      const errors = probeRules({ [h]: BROKEN }, BASE, ctx).errors;
      const own = errors.filter((e) => e.field.startsWith(`spec.livenessProbe.${h}.`));
      expect(
        own.length,
        `probeRules reports nothing under ${h}: is it checked in packages/schema/src/schema/probe-rules.ts?`,
      ).to.be.above(0);
      expect(errors.map((e) => e.message).filter((m) => m.includes('handler type'))).to.deep.equal([]);
    });

  it('counts handlers as the schema lists them: none, one or several, in its order, null as absent', () => {
    for (const set of subsets(handlers))
      for (const absent of [undefined, null]) {
        const probe: Record<string, unknown> = { other: { port: 1 } };
        for (const h of handlers) probe[h] = set.includes(h) ? { ...FINE } : absent;
        const expected =
          set.length === 0
            ? ['spec.livenessProbe: Required value: must specify a handler type']
            : set.slice(1).map((h) => `spec.livenessProbe.${h}: Forbidden: may not specify more than 1 handler type`);
        const got = messages(probe);
        // The count's errors come first, then the handlers' own (a FINE body has none).
        expect(
          got.slice(0, expected.length),
          `handlers ${JSON.stringify(set)}, absent as ${String(absent)}`,
        ).to.deep.equal(expected);
        expect(got.filter((m) => m.includes('handler type'))).to.deep.equal(expected);
      }
  });
});
