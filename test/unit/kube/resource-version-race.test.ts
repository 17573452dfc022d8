// lostResourceVersionRace: a bare 422 to a JSON patch that tested the resourceVersion is a lost race only when the
// object has moved past the tested version; unmoved, it is a real refusal (retrying it would loop on an invalid patch).
import { expect } from 'chai';
import { KubeApiError, lostResourceVersionRace, type KubeApi } from '../../../src/kube/index.js';

function apiAt(resourceVersion: string, gets: string[]): KubeApi {
  return {
    request: <T>(method: string, path: string) => {
      gets.push(`${method} ${path}`);
      return Promise.resolve({ metadata: { resourceVersion } } as T);
    },
    watch: () => Promise.resolve(),
  };
}

const bare422 = new KubeApiError(
  422,
  'Invalid',
  'PATCH /x: 422 Invalid: the server rejected our request due to an error in our request',
);

describe('lostResourceVersionRace (src/kube/client.ts)', () => {
  it('a bare 422: a race when the object moved past the tested version, a refusal when it did not', async () => {
    const gets: string[] = [];
    expect(await lostResourceVersionRace(apiAt('8', gets), '/x', bare422, '7')).to.equal(true);
    expect(await lostResourceVersionRace(apiAt('7', gets), '/x', bare422, '7')).to.equal(false);
    expect(gets).to.deep.equal(['GET /x', 'GET /x']);
  });

  it('a 409, or a 422 naming the failed test, is a race without a read; other answers are not, nor is an untested patch', async () => {
    const gets: string[] = [];
    const api = apiAt('8', gets);
    expect(await lostResourceVersionRace(api, '/x', new KubeApiError(409, 'Conflict', 'x'), '7')).to.equal(true);
    const named = new KubeApiError(422, 'Invalid', 'x', [
      'testing value /metadata/resourceVersion failed: test failed',
    ]);
    expect(await lostResourceVersionRace(api, '/x', named, '7')).to.equal(true);
    expect(await lostResourceVersionRace(api, '/x', new KubeApiError(500, 'InternalError', 'x'), '7')).to.equal(false);
    expect(await lostResourceVersionRace(api, '/x', new Error('socket hang up'), '7')).to.equal(false);
    expect(await lostResourceVersionRace(api, '/x', bare422, undefined)).to.equal(false);
    expect(gets).to.deep.equal([]);
  });
});
