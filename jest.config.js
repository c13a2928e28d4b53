// Jest runs on the pinned Node from node_modules (npm scripts put it first on PATH), as ESM.
export default {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.js'],
  // Suites needing third-party programs run on their own (npm run test:interop, jest.interop.config.js).
  testPathIgnorePatterns: ['/node_modules/', '/test/interop/'],
  transform: {},
  testTimeout: 60_000,
  maxWorkers: 2,
  globalSetup: '<rootDir>/test/global-setup.js',
  // Browser and workerd suites start real processes; give them time to stop cleanly.
  openHandlesTimeout: 5_000,
};
