import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'eval-out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Safety corpora hold obfuscated attacks on purpose: odd spaces and escapes inside their strings are data.
    files: ['test/fixtures/safety/**/*.ts'],
    rules: {
      'no-irregular-whitespace': ['error', { skipStrings: true, skipTemplates: true }],
      'no-useless-escape': 'off',
    },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The inspector's page: plain ES modules run by the browser (type-checked by tsconfig.inspector.json).
    files: ['src/inspector/ui/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'document',
          'window',
          'location',
          'history',
          'sessionStorage',
          'fetch',
          'URLSearchParams',
          'Node',
          'Element',
          'HTMLElement',
          'HTMLInputElement',
          'HTMLSelectElement',
          'HTMLDetailsElement',
          'HTMLButtonElement',
          'HTMLDataListElement',
          'SVGElement',
          'KeyboardEvent',
          'EventListener',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
