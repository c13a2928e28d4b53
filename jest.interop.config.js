// `npm run test:interop` (docs/reference/test-suites.md#interop-suite): tests against third-party programs
// from Debian's packages (Pd vanilla and pd-osc, liblo, SuperCollider's sclang and scsynth, ChucK, Csound, Sonic Pi;
// LilyPond, abc2midi, MMA and MuseScore as writers of the files `tutti import` reads, music21's corpus), kept out of `npm test`, which needs nothing but npm.
import { GLOBAL, PROJECT_BASE, INTEROP } from './jest.config.js';

export default {
  ...GLOBAL,
  ...PROJECT_BASE,
  testMatch: [`<rootDir>/${INTEROP}**/*.test.js`],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
