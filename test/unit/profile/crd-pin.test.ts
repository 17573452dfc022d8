// The ClusterProfile CRD the chart installs is upstream's, never hand-written: the chart's file is byte for byte the
// one in the pinned module sigs.k8s.io/cluster-inventory-api, fetched with `go mod download` through the Go module
// proxy (GOPROXY) into the module cache and checked against sum.golang.org, and its hash is the one pinned.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import {
  CHART_CRD_FILE,
  CLUSTER_INVENTORY_MODULE as M,
  PROFILE_GROUP,
  PROFILE_KIND,
  PROFILE_PLURAL,
  PROFILE_VERSION,
} from '../../../src/profile/index.js';

describe('ClusterProfile CRD: the pinned upstream module’s file', function () {
  this.timeout(180_000);

  it(`the chart's file is ${M.crd} of ${M.path}@${M.version}, whose sum is the pinned one`, () => {
    const r = spawnSync('go', ['mod', 'download', '-json', `${M.path}@${M.version}`], {
      encoding: 'utf8',
      // Outside any module of ours: a module cache fetch only.
      cwd: '/',
      env: { ...process.env, GOFLAGS: '-mod=mod' },
    });
    expect(r.error, 'go on PATH').to.equal(undefined);
    const info = JSON.parse(r.stdout) as { Dir?: string; Sum?: string; Error?: string };
    expect(info.Error, r.stderr).to.equal(undefined);
    expect(info.Sum).to.equal(M.sum);
    expect(readFileSync(CHART_CRD_FILE, 'utf8')).to.equal(readFileSync(join(info.Dir!, M.crd), 'utf8'));
  });

  it('serves the group, version, kind and plural the producer writes', () => {
    const crd = parse(readFileSync(CHART_CRD_FILE, 'utf8')) as {
      spec: {
        group: string;
        names: { kind: string; plural: string };
        versions: { name: string; subresources?: object }[];
      };
    };
    expect([crd.spec.group, crd.spec.names.kind, crd.spec.names.plural]).to.deep.equal([
      PROFILE_GROUP,
      PROFILE_KIND,
      PROFILE_PLURAL,
    ]);
    expect(crd.spec.versions.find((v) => v.name === PROFILE_VERSION)?.subresources).to.have.property('status');
  });
});
