import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const untrustedText = [
  {
    selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
    message: 'Crowd text is untrusted: render it as text.',
  },
  {
    selector: "AssignmentExpression[left.property.name='innerHTML']",
    message: 'Crowd text is untrusted: render it as text.',
  },
]

// A list spread into a call goes on the stack, one argument per item: past ~120k items it
// overflows. Lists of any length go through src/shared/lists.ts.
const spreadIntoCall = {
  selector:
    'CallExpression:matches([callee.name=/^createElement$/], [callee.property.name=/^(push|unshift|splice|max|min|fromCharCode|fromCodePoint|createElement)$/]) > SpreadElement',
  message:
    'A spread list overflows the stack past ~120k items: use append, largest or smallest (src/shared/lists.ts), or pass the array.',
}

const immediateTransactions = {
  selector:
    "CallExpression[callee.type='CallExpression'][callee.callee.property.name='transaction']",
  message: 'Begin write transactions with .immediate().',
}

const sqlOutsideDb = [
  { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'SQL lives in a db/ folder.' },
  {
    selector:
      'CallExpression[callee.property.name=/^(prepare|exec)$/][arguments.0.type=/Literal$/]',
    message: 'SQL lives in a db/ folder.',
  },
]

const noElectron = {
  name: 'electron',
  message: 'Use the contract; Electron lives in src/main/electron and src/preload.',
}

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/.data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', 'bin/*.js', 'scripts/*.js', 'bench/*.js', 'bench/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': ['error', ...untrustedText],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'bench/**/*.ts'],
    ignores: ['src/main/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...untrustedText, spreadIntoCall] },
  },
  {
    // A project may have a second writer (a pull's store thread, the command line beside the app).
    // A deferred transaction that reads before it writes then fails at once with SQLITE_BUSY
    // instead of waiting for the lock, so the core's write transactions begin immediate.
    files: ['src/main/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...untrustedText, spreadIntoCall, immediateTransactions],
    },
  },
  {
    // SQL lives only in a db/ folder: the core's (src/main/db) and each collection's
    // (src/main/collections/<kind>/db). rate.ts hands the rating queries a value's expression.
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/db/**', 'src/main/collections/*/db/**', 'src/main/ratings/rate.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...untrustedText,
        spreadIntoCall,
        immediateTransactions,
        ...sqlOutsideDb,
      ],
    },
  },
  {
    // Only the Electron adapters may talk IPC; everything else goes through the contract.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/main/electron/**', 'src/main/index.ts', 'src/preload/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron] }],
    },
  },
  {
    // The rating rules build on the queries, never the other way round.
    files: ['src/main/db/*.ts', 'src/main/db/{migrations,server}/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            {
              group: ['../ratings/*', '../../ratings/*', '**/main/ratings/*'],
              message: 'The rating rules (src/main/ratings) use db/, not the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    // The same from db/queries/, where ../ratings in an area's folder is the rating queries' own.
    files: ['src/main/db/queries/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            {
              group: ['../../ratings/*', '../../../ratings/*', '**/main/ratings/*'],
              message: 'The rating rules (src/main/ratings) use db/, not the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    // The job machinery (queue, cancel, write hooks, threads, error info) sits below every feature:
    // it uses the connection and the contract, never a feature or the jobs that start features.
    files: ['src/main/jobs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            {
              regex: String.raw`^\.\./(?!db/connection$|db/types$|\.\./shared/)`,
              message:
                'src/main/jobs sits below the features: it may use db/connection and shared/ only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The page never reaches the database or node directly.
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'better-sqlite3', 'electron', '**/main/**'],
              message: 'The page and shared code stay free of node, electron and main.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
)
