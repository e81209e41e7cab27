import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

// Three builds from one source tree: main (the app, the CLI, the task thread that runs imports,
// exports and long writes, the import's read-ahead thread, the pull's store thread, the policy
// thread and the WordNet thread share the core), a sandboxed CommonJS preload, and the React page.
// The MTurk stand-in (standin/) is a development tool, not part of the app: `npm run
// mturk:standin` runs it from its sources.
export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        input: {
          index: 'src/main/index.ts',
          cli: 'src/main/cli/main.ts',
          'task-worker': 'src/main/tasks/task-worker.ts',
          'read-ahead-worker': 'src/main/importers/read-ahead-worker.ts',
          'pull-store-worker': 'src/main/mturk/pull-store-worker.ts',
          'policy-worker': 'src/main/policies/policy-worker.ts',
          'wordnet-worker': 'src/main/collections/protoqa/wordnet-worker.ts',
          'count-worker': 'src/main/review/count-worker.ts',
        },
        // Shared chunks sit next to the entries, so `new URL('./task-worker.js',
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
