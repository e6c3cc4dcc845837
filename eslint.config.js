// Lint, including the one-way dependencies of docs/architecture.md, "Folders and the direction of imports": each folder may import only
// what the table allows. The restrictions sit in one place so the layering reads at a glance.
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

const never = (...groups) => groups.map((group) => ({ group: [group], message: 'forbidden by the layering rules (docs/architecture.md, "Folders and the direction of imports")' }));

/** Only type imports from server/contract; nothing else of server/. */
const contractTypesOnly = [
  { group: ['**/server/contract', '**/server/contract/**'], allowTypeImports: true, message: 'only `import type` from server/contract' },
  { group: ['**/server/**', '!**/server/contract', '!**/server/contract/**'], message: 'only types from server/contract may be imported here' },
];

/** The platform client's tests and their rigs. */
const platformClientTests = ['platform-client/**/*.test.ts', 'platform-client/test/**'];

const layer = (files, patterns, paths = [], ignores = []) => ({
  files,
  ignores,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns, paths }] },
});

export default ts.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/out/**'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-warning-comments': ['error', { terms: ['todo', 'fixme'], location: 'start' }],
    },
  },
  {
    files: ['renderer/**/*.svelte', 'renderer/**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  layer(['server/**'], never('**/main/**', '**/platform-client/**', '**/renderer/**', '**/e2e/**'), [{ name: 'electron', message: 'only main/electron may use Electron' }]),
  layer(
    ['platform-client/**'],
    [...contractTypesOnly, ...never('**/main/**', '**/renderer/**', '**/e2e/**')],
    [{ name: 'electron', message: 'only main/electron may use Electron' }],
    platformClientTests,
  ),
  // Its tests may also use the tests' helpers in server/testing (the seeded fuzzers), never server code.
  layer(platformClientTests, [
    { group: ['**/server/contract', '**/server/contract/**'], allowTypeImports: true, message: 'only `import type` from server/contract' },
    { group: ['**/server/**', '!**/server/contract', '!**/server/contract/**', '!**/server/testing', '!**/server/testing/**'], message: 'platform-client tests may import server/testing and types from server/contract only' },
    ...never('**/main/**', '**/renderer/**', '**/e2e/**'),
  ]),
  layer(
    ['renderer/**'],
    [...contractTypesOnly, ...never('node:*', '**/main/**', '**/platform-client/**', '**/e2e/**')],
    [{ name: 'electron', message: 'the renderer is a browser app' }],
  ),
  layer(
    ['main/**'],
    [
      { group: ['**/server/**', '!**/server/index.ts'], message: 'main/ uses only server/index.ts (the public entry)' },
      { group: ['**/platform-client/**', '!**/platform-client/index.ts'], message: 'main/ uses only platform-client/index.ts' },
      ...never('**/renderer/**', '**/e2e/**'),
    ],
    [],
    // Tests of the entries (and their rigs) drive real doubles (the simulator, the platform
    // emulator, fake models) and share the tests' helpers in server/testing.
    ['main/**/*.test.ts', 'main/testing/**'],
  ),
  {
    files: ['main/**'],
    ignores: ['main/electron/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'only main/electron may use Electron' }] }],
    },
  },
);
