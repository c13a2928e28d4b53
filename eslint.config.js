import js from '@eslint/js';
import globals from 'globals';
import tutti from './tools/lint/import-rules.js';

export default [
  {
    ignores: ['node_modules/**', 'dist/**', 'artifacts/**', 'bench-results/**', '.wrangler/**', 'edge-worker/.wrangler/**', 'coverage/**'],
  },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      // One import style for core everywhere (docs/explanation/architecture.md#where-things-are).
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+core/', message: 'import core as #core/<folder>/<file>.js' }] }],
    },
  },
  // Outside local-server/, the show server is reached through its front door, local-server/index.js.
  {
    files: ['app/**', 'bench/**', 'scripts/**', 'artillery/**', 'edge-worker/**', 'tools/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+core/', message: 'import core as #core/<folder>/<file>.js' },
            { regex: '^(\\.\\./)+local-server/src/', message: 'import the show server from local-server/index.js' },
          ],
        },
      ],
    },
  },
  // The console page runs unbundled: it imports the core files the control listener serves at
  // /core/… by their relative path (local-server/src/console/console-ui.js, CONSOLE_CORE_FILES).
  { files: ['web/console/**'], rules: { 'no-restricted-imports': 'off' } },
  {
    files: ['core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./', message: 'another core folder is #core/<folder>/<file>.js' },
            // core/ is runtime-free (docs/explanation/architecture.md#imports-point-one-way).
            { regex: '^node:', message: 'core/ is runtime-free: no node:* import' },
          ],
        },
      ],
    },
  },
  // Imports point one way (docs/explanation/architecture.md#imports-point-one-way): no cycle
  // anywhere; in the folders by concern, no file reaches up to a file of an ancestor folder.
  { plugins: { tutti }, rules: { 'tutti/no-import-cycle': 'error' } },
  { files: ['core/**', 'local-server/**', 'edge-worker/**'], rules: { 'tutti/no-parent-folder-import': 'error' } },
  { files: ['test/**'], languageOptions: { globals: { ...globals.node, ...globals.jest } } },
  // Browser suites pass functions to page.evaluate(): they run in the page.
  {
    files: ['test/audience/**', 'test/browsers/**', 'test/app/**', 'test/artillery/**', 'test/security/**'],
    languageOptions: { globals: { ...globals.node, ...globals.jest, ...globals.browser } },
  },
  {
    files: ['web/audience/src/**', 'web/audience/part/**', 'web/audience/shared/**', 'web/console/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  { files: ['edge-worker/src/**'], languageOptions: { globals: { ...globals.serviceworker, WebSocketPair: 'readonly' } } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  // Functions of ~120 lines at most, as on the server side (CONTRIBUTING.md#the-checks): a longer
  // factory is split by concern into its own module.
  {
    files: ['web/**/*.js', 'app/**/*.js', 'app/**/*.cjs', 'core/**/*.js', 'local-server/**/*.js', 'edge-worker/src/**/*.js'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }] },
  },
];
