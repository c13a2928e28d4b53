// Jest runs on the pinned Node from node_modules (npm scripts put it first on PATH), as ESM.
// One project per run, so each run's files are written once, here (CONTRIBUTING: which suite when):
//   npm run test:parallel  → --selectProjects parallel (everything below but the other projects)
//   npm run test:timing    → --selectProjects timing --runInBand (suites that measure time)
//   npm run test:browsers  → --selectProjects browsers --runInBand (other engines: Firefox, WebKit)
//   npm run jest -- FILE   → whichever project holds FILE
// Suites needing third-party programs run on their own (npm run test:interop, jest.interop.config.js).

/** Suites that measure time: alone on the machine, in band, after the parallel run. */
export const TIMING_SUITES = [
  'test/reliability/',
  'test/audience/sync.test.js',
  'test/audience/outage.test.js',
  'test/audience/part-page.test.js',
  'test/audience/part-notation.test.js',
  'test/audience/graphic-score.test.js',
  'test/local-server/osc/osc-timing.test.js',
  'test/local-server/osc/hold-still.test.js',
];
const BROWSERS = 'test/browsers/';
const INTEROP = 'test/interop/';

/** What every project shares (project-level options; the global ones are below). */
export const PROJECT_BASE = {
  testEnvironment: 'node',
  transform: {},
};

/** A path prefix or file as a glob of the test files it holds. */
const asGlob = (p) => (p.endsWith('/') ? `<rootDir>/${p}**/*.test.js` : `<rootDir>/${p}`);
/** …and as an ignore pattern (a regex matched against the absolute path). */
const asIgnore = (p) => `<rootDir>/${p.replace(/\./g, '\\.')}`;

/** Options of the whole run (not per project). */
export const GLOBAL = {
  testTimeout: 60_000,
  maxWorkers: 2,
  globalSetup: '<rootDir>/test/global-setup.js',
  // Browser and workerd suites start real processes; give them time to stop cleanly.
  openHandlesTimeout: 5_000,
};

export default {
  ...GLOBAL,
  projects: [
    {
      ...PROJECT_BASE,
      displayName: 'parallel',
      testMatch: ['<rootDir>/test/**/*.test.js'],
      testPathIgnorePatterns: ['/node_modules/', ...[INTEROP, BROWSERS, ...TIMING_SUITES].map(asIgnore)],
    },
    { ...PROJECT_BASE, displayName: 'timing', testMatch: TIMING_SUITES.map(asGlob) },
    { ...PROJECT_BASE, displayName: 'browsers', testMatch: [asGlob(BROWSERS)] },
  ],
};

export { INTEROP };
