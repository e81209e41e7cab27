import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

// Three builds from one source tree: main (the app, the CLI, the import and write workers, its read-ahead
// thread, the pull's store and parsing threads, the WordNet thread and the MTurk stand-in share the core), a
// sandboxed CommonJS preload, and the React page.
export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        input: {
          index: 'src/main/index.ts',
          cli: 'src/main/cli/main.ts',
          'import-worker': 'src/main/jobs/import-worker.ts',
          'write-worker': 'src/main/jobs/write-worker.ts',
          'export-worker': 'src/main/jobs/export-worker.ts',
          'read-ahead-worker': 'src/main/importers/read-ahead-worker.ts',
          'pull-store-worker': 'src/main/mturk/pull-store-worker.ts',
          'answer-parse-worker': 'src/main/mturk/answer-parse-worker.ts',
          'mturk-standin': 'src/main/mturk/standin/cli.ts',
          'policy-worker': 'src/main/policies/policy-worker.ts',
          'wordnet-worker': 'src/main/protoqa/wordnet-worker.ts',
        },
        // Shared chunks sit next to the entries, so `new URL('./import-worker.js',
        // import.meta.url)` finds the thread scripts from whichever file the code landed in.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot load node_modules or ES modules: one self-contained CJS file.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: 'src/preload/index.ts' },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    build: {
      rolldownOptions: { input: 'src/renderer/index.html' },
    },
  },
})
