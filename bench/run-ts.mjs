// Runs one TypeScript benchmark through Vite's module runner (no build, no extra dependency):
//   node bench/run-ts.mjs bench/query.bench.ts
// The module must export `run(report)`; `report` prints one line.
import { runnerImport } from 'vite'

const file = process.argv[2]
if (!file) {
  console.error('usage: node bench/run-ts.mjs bench/<name>.bench.ts')
  process.exit(2)
}
const { module } = await runnerImport(file)
await module.run((line) => console.log(line))
