import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

// Three builds from one source tree: main (the app, the CLI, the import worker and the MTurk
// stand-in share the core), a sandboxed CommonJS preload, and the React page.
export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        input: {
          index: 'src/main/index.ts',
          cli: 'src/main/cli/main.ts',
          'import-worker': 'src/main/jobs/import-worker.ts',
          'mturk-standin': 'src/main/mturk/standin/cli.ts',
        },
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
