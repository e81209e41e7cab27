import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'

/** A thread's entry: a built script, or source code that loads its TypeScript source. */
export interface ThreadScript {
  code: string | URL
  eval: boolean
}

/**
 * The thread script `name` next to the module at `base` (that module's `import.meta.url`): the
 * built `name.js` (`out/main`), or else, unless `sources` is false, the source `name.ts` loaded
 * through tsx (tests and benchmarks run the sources); null when neither is there.
 */
export function threadScript(
  base: string,
  name: string,
  { sources = true }: { sources?: boolean } = {},
): ThreadScript | null {
  const built = new URL(`./${name}.js`, base)
  if (existsSync(fileURLToPath(built))) return { code: built, eval: false }
  if (!sources) return null
  const source = new URL(`./${name}.ts`, base)
  if (!existsSync(fileURLToPath(source))) return null
  const href = JSON.stringify(source.href)
  return {
    code: `import('tsx/esm/api').then((tsx) => tsx.tsImport(${href}, ${href}))`,
    eval: true,
  }
}

/**
 * A thread's young generation, in MB. V8's default (16 MB semi-spaces, ~48 MB) is held by every
 * thread through a long job and adds up to a large share of an export's or import's peak; a small
 * one is scavenged more often, at no cost measured (benchmarks.md, "Peak memory of large jobs").
 */
const YOUNG_GENERATION_MB = 6

/** Starts a thread on `script` with `options` (its data, transfers). */
export function startThread(script: ThreadScript, options: Omit<WorkerOptions, 'eval'>): Worker {
  return new Worker(script.code, {
    ...options,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, ...options.resourceLimits },
    eval: script.eval,
  })
}
