import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const main = join(import.meta.dirname, '..', '..', 'src', 'main')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [join(dir, e.name)]
        : [],
  )
}

/** Files (relative to src/main) whose text matches `pattern`. */
function writers(pattern: RegExp): string[] {
  return sources(main)
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(main, file))
    .sort()
}

describe('the rating rules live in one room', () => {
  // An item rating outranks the worker's: recording one and putting it in force as the
  // annotation's effective rating is the rating rules' work (src/main/ratings), whose SQL is in
  // db/queries/ratings/. A feature that writes ratings (a policy) goes through them.
  it('only the rating queries record item ratings or set effective ratings', () => {
    const inRatingQueries = (file: string): boolean => /^db\/queries\/ratings\/\w+\.ts$/.test(file)
    const recording = writers(/INSERT\s+INTO\s+item_ratings/i)
    const settingEffective = writers(/UPDATE\s+annotations\s+SET[^`]*\brating(_source)?\s*=/i)
    expect(recording.length).toBeGreaterThan(0)
    expect(settingEffective.length).toBeGreaterThan(0)
    expect(recording.filter((f) => !inRatingQueries(f))).toEqual([])
    expect(settingEffective.filter((f) => !inRatingQueries(f))).toEqual([])
  })
})
