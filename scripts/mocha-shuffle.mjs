// A mocha root hook for `npm run test:stress -- --order shuffle`: before the first test runs, shuffles the files (the
// root's suites), every describe's nested describes and, with STRESS_SHUFFLE=tests, the tests in each describe, in an
// order drawn from STRESS_SEED (printed, so a failing order can be run again). Mocha copies a suite's tests and walks
// its nested suites only when it reaches that suite, after the root's beforeAll hooks: shuffling the arrays here is
// the order it runs. Not loaded by `npm test`.

/** mulberry32: a small seeded generator, so the same seed gives the same order on every machine. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(items, random) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
}

function shuffleSuite(suite, random, tests) {
  shuffle(suite.suites, random);
  if (tests) shuffle(suite.tests, random);
  for (const child of suite.suites) shuffleSuite(child, random, tests);
}

const seed = Number(process.env.STRESS_SEED ?? Date.now() % 2 ** 31);
const tests = process.env.STRESS_SHUFFLE === 'tests';

export const mochaHooks = {
  beforeAll() {
    let root = this.test.parent;
    while (root.parent !== undefined) root = root.parent;
    shuffleSuite(root, generator(seed), tests);
  },
};
