import { describe, expect, it } from 'vitest'
import { openProject, pluck, pluckAll } from '../../src/main/db/connection'
import { sql } from '../../src/main/db/sql'
import { runCli } from '../../src/main/cli/index'
import { writeSynthetic } from '../../src/main/importers/synthetic'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { handProject } from './fixture'

interface Out {
  total: number
  rows: Array<Record<string, unknown>>
}

/** Runs the command line in this process; each piece of text it wrote, in order (it must succeed). */
async function writtenChunks(args: string[]): Promise<string[]> {
  const chunks: string[] = []
  const code = await runCli(args, {
    stdout: (t) => chunks.push(t),
    stderr: (t) => chunks.push(`stderr: ${t}`),
    interactive: false,
  })
  expect(code).toBe(0)
  return chunks
}

describe('winnow query', () => {
  const tempDir = useTempDir()

  function project(): string {
    const dir = tempDir()
    handProject(dir).close()
    return `${dir}/hand.winnow`
  }

  async function query(...args: string[]): Promise<Out> {
    const out = await cli('query', ...args, '--json')
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    return JSON.parse(out.stdout) as Out
  }

  it('prints the total and rows with the documented fields', async () => {
    const db = project()
    const out = await query('--db', db, '--worker', 'A1ALPHA', '--dimension', '1')
    expect(out.total).toBe(2)
    expect(Object.keys(out.rows[0] ?? {})).toEqual([
      'annotationId',
      'submissionId',
      'assignmentId',
      'workerId',
      'storyId',
      'sentenceIndex',
      'sentence',
      'dimension',
      'specificNL',
      'generalNL',
      'submittedAt',
      'rating',
    ])
    expect(out.rows[0]).toMatchObject({
      assignmentId: 'ASSIGNA1',
      workerId: 'A1ALPHA',
      storyId: 'story-cat',
      sentenceIndex: 1,
      sentence: 'The cat was hungry.',
      dimension: 1,
      submittedAt: '2019-09-01T00:00:00.000Z',
      rating: 3,
    })
  })

  it('combines repeated options with OR and different ones with AND', async () => {
    const db = project()
    expect((await query('--db', db, '--worker', 'A1ALPHA', '--worker', 'A2BRAVO')).total).toBe(10)
    expect(
      (await query('--db', db, '--worker', 'A1ALPHA', '--worker', 'A2BRAVO', '--rating', '2'))
        .total,
    ).toBe(4)
    expect((await query('--db', db, '--rating', 'unrated')).total).toBe(5)
    // A negative value must be attached: node's parser reads a lone -1 as an option.
    expect((await query('--db', db, '--rating', 'unrated', '--rating=-1')).total).toBe(8)
    expect((await query('--db', db, '--from', '2019-09-02', '--to', '2019-09-03')).total).toBe(6)
    expect((await query('--db', db, '--sentence', '100%')).total).toBe(2)
    expect((await query('--db', db, '--text', '"loudly', '--story', 'story-cat')).total).toBe(1)
    expect((await query('--db', db, '--flagged')).total).toBe(2)
  })

  it('sorts, limits and offsets', async () => {
    const db = project()
    const all = await query('--db', db, '--sort', 'submittedAt:desc', '--limit', '100')
    expect(all.total).toBe(17)
    expect(all.rows).toHaveLength(17)
    const dates = all.rows.map((r) => r.submittedAt as string | null)
    expect(dates.slice(0, 3)).toEqual(Array(3).fill('2019-09-05T00:00:00.000Z'))
    expect(dates.slice(-2)).toEqual([null, null])
    const page = await query(
      '--db',
      db,
      '--sort',
      'submittedAt:desc',
      '--limit',
      '4',
      '--offset',
      '5',
    )
    expect(page.total).toBe(17)
    expect(page.rows.map((r) => r.annotationId)).toEqual(
      all.rows.slice(5, 9).map((r) => r.annotationId),
    )
    expect((await query('--db', db, '--limit', '0')).rows).toEqual([])
    expect(
      (await query('--db', db, '--sort', 'annotationId:desc', '--limit', '1')).rows[0]
        ?.annotationId,
    ).toBe(Math.max(...all.rows.map((r) => r.annotationId as number)))
  })

  it('prints tab-separated rows without --json', async () => {
    const db = project()
    const out = await cli('query', '--db', db, '--worker', 'A3CHARLIE')
    expect(out.code).toBe(0)
    const lines = out.stdout.trimEnd().split('\n')
    expect(lines[0]?.startsWith('annotationId\t')).toBe(true)
    expect(lines.at(-1)).toBe('3 of 3 annotations')
  })

  it('prints only the rows with --tsv, as a copy of them does', async () => {
    const db = project()
    const text = await cli('query', '--db', db, '--worker', 'A3CHARLIE')
    const tsv = await cli('query', '--db', db, '--worker', 'A3CHARLIE', '--tsv')
    expect(tsv.code).toBe(0)
    expect(tsv.stdout).toBe(text.stdout.replace(/3 of 3 annotations\n$/, ''))
    expect(tsv.stdout.trimEnd().split('\n')).toHaveLength(4)
    expect((await cli('query', '--db', db, '--tsv', '--json')).code).toBe(2)
  })

  it('writes every row of a long --tsv as it reads them, the text a copy of them gives', async () => {
    const path = `${tempDir()}/long.winnow`
    const db = openProject(path, { create: true })
    writeSynthetic(db, { submissions: 500, seed: 7 })
    db.close()
    const args = ['query', '--db', path, '--tsv', '--limit', '100000', '--sort', 'id']
    const chunks = await writtenChunks(args)
    // Pages of a thousand rows go out one by one, not as one text at the end.
    expect(chunks.length).toBeGreaterThan(2)
    const json = (await cli(...args.filter((a) => a !== '--tsv'), '--json')).json as Out
    expect(json.rows.length).toBeGreaterThan(2000)
    const lines = chunks.join('').split('\n')
    expect(lines[0]?.startsWith('annotationId\t')).toBe(true)
    expect(lines.at(-1)).toBe('')
    expect(lines.slice(1, -1).map((l) => Number(l.split('\t')[0]))).toEqual(
      json.rows.map((r) => r.annotationId),
    )
    const whole = await cli(...args)
    expect(chunks.join('')).toBe(whole.stdout)
  })

  it('writes a long --json page by page, the document it printed whole before', async () => {
    const path = `${tempDir()}/long.winnow`
    const db = openProject(path, { create: true })
    writeSynthetic(db, { submissions: 500, seed: 7 })
    const total = pluck<number>(db, sql`SELECT count(*) FROM annotations`)
    const ids = pluckAll<number>(db, sql`SELECT id FROM annotations ORDER BY id`)
    db.close()
    const args = ['query', '--db', path, '--json', '--limit', '100000', '--sort', 'id']
    const chunks = await writtenChunks(args)
    // Pages of a thousand rows go out one by one, not as one text at the end.
    expect(chunks.length).toBeGreaterThan(3)
    const text = chunks.join('')
    const doc = JSON.parse(text) as Out
    // The same text as the document printed whole (`JSON.stringify` of it and a newline).
    expect(text).toBe(`${JSON.stringify(doc)}\n`)
    expect(doc.total).toBe(total)
    expect(doc.rows.map((r) => r.annotationId)).toEqual(ids)
    const tsv = (await cli(...args.filter((a) => a !== '--json'), '--tsv')).stdout.split('\n')
    expect(doc.rows.map((r) => String(r.specificNL))).toEqual(
      tsv.slice(1, -1).map((l) => l.split('\t')[tsv[0]?.split('\t').indexOf('specificNL') ?? -1]),
    )
    // A page of none writes the empty document.
    const none = await cli('query', '--db', path, '--json', '--worker', 'nobody')
    expect(none.stdout).toBe('{"total":0,"rows":[]}\n')
  })

  it('exits 2 on usage errors', async () => {
    const db = project()
    const bad = [
      ['--worker', 'A1ALPHA'],
      ['--db', db, '--dimension', '11'],
      ['--db', db, '--dimension', 'two'],
      ['--db', db, '--rating', 'good'],
      ['--db', db, '--from', '2019-13-01'],
      ['--db', db, '--from', '2019-09-05', '--to', '2019-09-01'],
      ['--db', db, '--sort', 'colour'],
      ['--db', db, '--sort', 'rating:sideways'],
      ['--db', db, '--limit', '-1'],
      ['--db', db, '--offset', '1.5'],
      ['--db', db, '--bogus'],
      ['--db', db, 'stray'],
    ]
    for (const args of bad) {
      const out = await cli('query', ...args, '--json')
      expect(out.code, args.join(' ')).toBe(2)
      expect(out.stdout).toBe('')
      expect(out.stderr).toMatch(/Usage: winnow query/)
    }
  })

  it('exits 1 when the project is missing', async () => {
    const out = await cli('query', '--db', `${tempDir()}/none.winnow`, '--json')
    expect(out.code).toBe(1)
  })
})
