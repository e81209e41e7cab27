import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { openProject } from '../../src/main/db/connection'
import { useTempDir } from '../helpers/tmp'
import { day, importSubmissions, newProject } from './helpers'

/** `{"changeSet":id,"changed":n}` and nothing else. */
function expectRated(json: unknown, changed: number): void {
  const out = json as { changeSet: unknown; changed: unknown }
  expect(Object.keys(out)).toEqual(['changeSet', 'changed'])
  expect(typeof out.changeSet).toBe('number')
  expect(out.changed).toBe(changed)
}

describe('winnow rate, history, revert', () => {
  const tempDir = useTempDir()

  function project(): { path: string; annotations: number[][] } {
    const dir = tempDir()
    const db = newProject(dir)
    const { annotations } = importSubmissions(db, [
      { worker: 'A1', at: day('2019-09-01'), fileRating: -1 },
      { worker: 'A1', at: day('2019-09-10'), fileRating: 2 },
      { worker: 'B2', at: day('2019-09-10'), dimensions: 3 },
    ])
    db.close()
    return { path: join(dir, 'p.winnow'), annotations }
  }

  const ratingOf = (path: string, id: number) => {
    const db = openProject(path)
    try {
      return db.prepare('SELECT rating FROM annotations WHERE id = ?').pluck().get(id)
    } finally {
      db.close()
    }
  }

  it('rates a worker from a date, then lists and reverts it', async () => {
    const { path, annotations } = project()
    const rated = await cli(
      'rate',
      '--db',
      path,
      '--worker',
      'A1',
      '--rating',
      '3',
      '--from',
      '2019-09-10',
      '--note',
      'good',
      '--json',
    )
    expect(rated.code).toBe(0)
    expectRated(rated.json, 2)
    expect(ratingOf(path, annotations[0]?.[0] as number)).toBe(-1)
    expect(ratingOf(path, annotations[1]?.[0] as number)).toBe(3)

    const listed = await cli('history', '--db', path, '--json')
    const { changeSets } = listed.json as { changeSets: Record<string, unknown>[] }
    const { at, description, author, ...rest } = changeSets[0] as {
      at: unknown
      description: string
      author: unknown
    }
    expect(typeof author).toBe('string')
    expect(rest).toEqual({
      id: (rated.json as { changeSet: number }).changeSet,
      kind: 'manual',
      changed: 2,
      revertedBy: null,
    })
    expect(typeof at).toBe('number')
    expect(description).toContain('A1')
    expect(changeSets.map((c) => c.kind)).toEqual(['manual', 'import'])

    const id = String((rated.json as { changeSet: number }).changeSet)
    const reverted = await cli('revert', id, '--db', path, '--json')
    expectRated(reverted.json, 2)
    expect(ratingOf(path, annotations[1]?.[0] as number)).toBe(2)
    const after = (await cli('history', '--db', path, '--json')).json as {
      changeSets: Record<string, unknown>[]
    }
    expect(after.changeSets.find((c) => String(c.id) === id)?.revertedBy).toBe(
      (reverted.json as { changeSet: number }).changeSet,
    )
    const again = await cli('revert', id, '--db', path)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already reverted/)
  })

  it('rates annotations and submissions as items', async () => {
    const { path, annotations } = project()
    const one = await cli(
      'rate',
      '--db',
      path,
      '--annotation',
      String(annotations[2]?.[0]),
      '--rating',
      '1',
      '--json',
    )
    expectRated(one.json, 1)
    const sub = await cli('rate', '--db', path, '--submission', '3', '--rating', '1.5', '--json')
    expectRated(sub.json, 3)
    const preview = await cli(
      'rate',
      '--db',
      path,
      '--submission',
      '3',
      '--rating',
      'clear',
      '--preview',
      '--json',
    )
    expect(preview.json).toEqual({
      preview: true,
      changed: 3,
      transitions: [{ from: 1.5, to: null, count: 3 }],
    })
    expect(ratingOf(path, annotations[2]?.[0] as number)).toBe(1.5)
  })

  it('rates every row of a query in one bulk change set, previewed first', async () => {
    const { path } = project()
    const preview = await cli(
      'rate',
      '--db',
      path,
      '--rating',
      '1',
      '--dimension',
      '1',
      '--where-rating',
      '2',
      '--where-rating',
      'unrated',
      '--preview',
      '--json',
    )
    expect(preview.json).toEqual({
      preview: true,
      changed: 2,
      transitions: [
        { from: 2, to: 1, count: 1 },
        { from: null, to: 1, count: 1 },
      ],
    })
    const applied = await cli(
      'rate',
      '--db',
      path,
      '--rating',
      '1',
      '--dimension',
      '1',
      '--where-rating',
      '2',
      '--where-rating',
      'unrated',
      '--json',
    )
    expectRated(applied.json, 2)
    const { changeSets } = (await cli('history', '--db', path, '--json')).json as {
      changeSets: { kind: string; description: string }[]
    }
    expect(changeSets[0]?.kind).toBe('bulk')
    expect(changeSets[0]?.description).toContain('dimension 1')
    // A worker filter with a commit date and --bulk rates those rows as items, not the worker.
    const bulk = await cli(
      'rate',
      '--db',
      path,
      '--rating',
      '3',
      '--worker',
      'A1',
      '--from',
      '2019-09-05',
      '--bulk',
      '--json',
    )
    expectRated(bulk.json, 2)
    const none = await cli(
      'rate',
      '--db',
      path,
      '--rating',
      '3',
      '--worker',
      'nobody',
      '--bulk',
      '--json',
    )
    expect(none.json).toEqual({ changeSet: null, changed: 0 })
  })

  it('shows stats as of a moment', async () => {
    const { path } = project()
    const before = Date.now()
    const rated = await cli(
      'rate',
      '--db',
      path,
      '--worker',
      'B2',
      '--rating',
      '0',
      '--from',
      '2019-01-01',
      '--json',
    )
    expect(rated.code).toBe(0)
    const now = (await cli('stats', '--db', path, '--json')).json as {
      byRating: Record<string, number>
    }
    expect(now.byRating).toMatchObject({ '0': 3, unrated: 0 })
    const then = (await cli('stats', '--db', path, '--as-of', String(before - 1), '--json'))
      .json as { byRating: Record<string, number> }
    expect(then.byRating).toMatchObject({ unrated: 3, '2': 2, '-1': 2 })
    expect(then.byRating['0']).toBeUndefined()
  })

  it('refuses bad input with exit code 2', async () => {
    const { path } = project()
    const bad = [
      ['rate', '--db', path, '--worker', 'A1', '--rating', '2.5', '--from', '2019-09-05'],
      ['rate', '--db', path, '--worker', 'A1', '--rating', 'x', '--from', '2019-09-05'],
      ['rate', '--db', path, '--worker', 'A1', '--rating', '2', '--from', '2019-02-30'],
      ['rate', '--db', path, '--worker', 'A1', '--rating', 'clear', '--from', '2019-02-03'],
      ['rate', '--db', path, '--rating', '2'],
      ['rate', '--db', path, '--annotation', '0', '--rating', '2'],
      ['rate', '--db', path, '--annotation', '1', '--dimension', '2', '--rating', '2'],
      ['rate', '--db', path, '--dimension', '11', '--rating', '2'],
      ['rate', '--db', path, '--worker', 'A1', '--from', '2019-09-05'],
      ['revert', 'abc', '--db', path],
      ['revert', '--db', path],
      ['stats', '--db', path, '--as-of', 'yesterday'],
    ]
    for (const argv of bad) {
      const result = await cli(...argv)
      expect(result.code, argv.join(' ')).toBe(2)
    }
    expect(
      (await cli('rate', '--db', path, '--worker', 'ZZ', '--rating', '2', '--from', '2019-09-05'))
        .code,
    ).toBe(1)
    expect((await cli('revert', '999', '--db', path)).code).toBe(1)
  })
})
