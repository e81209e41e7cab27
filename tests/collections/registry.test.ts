import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { collectionImporters } from '../../src/main/collections/importers'
import { collections } from '../../src/main/collections/registry'
import { collectionSchemas } from '../../src/main/collections/schemas'
import { collectionTeams } from '../../src/main/collections/teams'
import { LATEST_VERSION, migrations } from '../../src/main/db/migrations'
import { COLLECTIONS, PAGES } from '../../src/shared/pages'

const src = join(import.meta.dirname, '..', '..', 'src')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  )
}

/** `file: specifier` for each import of `file` whose specifier matches `pattern`. */
function importsMatching(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)]
      .map((m) => m[1] ?? m[2] ?? '')
      .filter((specifier) => pattern.test(specifier))
      .map((specifier) => `${relative(src, file)}: ${specifier}`),
  )
}

const KINDS = '(protoqa|crowdaq|halie)'

describe('a collection is a module', () => {
  // The core asks the registries (main: registry, schemas, importers; the renderer:
  // features/collections) instead of naming a collection, so a new one is a folder and a line
  // in each list.
  it('the core of main names no collection: it asks the registries', () => {
    const core = sources(join(src, 'main')).filter(
      (f) => !f.startsWith(join(src, 'main', 'collections')),
    )
    const named = importsMatching(core, new RegExp(`collections/${KINDS}/`))
    // MTurk pulls an exam's qualification HIT as CROWDAQ attempts (mturk/exam-map.ts): the
    // one place the core still reaches into a collection.
    const mturkExamPull = [
      'main/api/mturk.ts: ../collections/crowdaq/grade',
      'main/mturk/pullRun.ts: ../collections/crowdaq/grade',
      'main/mturk/pullRun.ts: ../collections/crowdaq/db/specs',
      'main/mturk/pullStore.ts: ../collections/crowdaq/db/attempts',
    ]
    expect(named.filter((i) => !mturkExamPull.includes(i))).toEqual([])
  })

  it("the renderer's shell names no collection's page: it asks features/collections", () => {
    const outside = sources(join(src, 'renderer')).filter(
      (f) => !new RegExp(`features/${KINDS}/`).test(f) && !f.endsWith('features/collections.ts'),
    )
    expect(importsMatching(outside, new RegExp(`(^|/)${KINDS}/`))).toEqual([])
  })

  it('every list names the same collections in the order of their pages', () => {
    const ids = collections.map((c) => c.id)
    expect(ids).toEqual([...COLLECTIONS])
    expect(collectionSchemas.map((s) => s.id)).toEqual(ids)
    expect(collectionImporters.map((i) => i.id)).toEqual(ids)
    expect(PAGES.filter((p) => 'collection' in p).map((p) => p.id)).toEqual(ids)
    for (const [i, c] of collections.entries()) {
      expect(collectionSchemas[i]).toBe(c.schema)
      expect(collectionImporters[i]).toBe(c.importer)
      expect(collectionTeams[i]).toBe(c.team)
    }
  })

  it("each collection's migrations keep their numbers in the file's one sequence", () => {
    expect(migrations.map((m) => m.version)).toEqual(
      Array.from({ length: LATEST_VERSION }, (_, i) => i + 1),
    )
    const byCollection = collections.map((c) => [
      c.id,
      c.schema.migrations.map((m) => `${m.version}-${m.name}`),
    ])
    expect(byCollection).toEqual([
      ['protoqa', ['7-protoqa']],
      ['crowdaq', ['11-crowdaq', '13-crowdaq-attempt-times']],
      [
        'halie',
        [
          '14-halie',
          '16-halie-ratings',
          '21-halie-changed-sessions',
          '24-halie-changed-session-values',
        ],
      ],
    ])
    for (const m of collections.flatMap((c) => c.schema.migrations)) {
      expect(migrations[m.version - 1]).toBe(m)
    }
  })
})
