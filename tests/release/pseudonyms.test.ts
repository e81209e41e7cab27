import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { parquetReadObjects } from 'hyparquet'
import { describe, expect, it } from 'vitest'
import { drawAudit, judge } from '../../src/main/audits/audits'
import { openProject } from '../../src/main/db/connection'
import { importFiles } from '../../src/main/importers/run'
import { applyPolicy } from '../../src/main/policies/run'
import { rateWorker } from '../../src/main/ratings/rate'
import { rateFilter } from '../../src/main/ratings/rateTargets'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { WorkerPseudonyms } from '../../src/main/release/pseudonyms'
import { generateTestSet } from '../../src/main/synth/glucose'
import { mturkWorkerId } from '../../src/main/synth/workers'
import { joinReferences } from '../../src/shared/glucose/references'
import { cli } from '../helpers/cli'
import { writeReleaseCsv, writeTestCsv } from '../helpers/csv-writers'
import { useTempDir } from '../helpers/tmp'
import { day } from '../ratings/helpers'
import { releaseSubmissions } from './helpers'

const tempDir = useTempDir()

/** Ways a person may write a worker id into a note, a name or a description. */
const WRITINGS: ((id: string) => string)[] = [
  (id) => id,
  (id) => id.toLowerCase(),
  (id) => `(${id})`,
  (id) => `${id}'s`,
  (id) => `x${id}y`,
  (id) => `worker ${id}`,
  (id) => `"${id}"`,
  (id) => `#${id}.`,
  (id) => `${id}_${id.slice(1)}`,
]

/** Every file of a folder, recursively, as text (Parquet files as their rows). */
async function releaseTexts(out: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>()
  for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    const bytes = readFileSync(path)
    let text = bytes.toString('latin1')
    if (path.endsWith('.parquet')) {
      const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
      text += JSON.stringify(await parquetReadObjects({ file }))
    } else {
      text += bytes.toString('utf8')
    }
    texts.set(path.slice(out.length + 1), text)
  }
  return texts
}

describe('a pseudonymised release', () => {
  it('names no real worker id in any file, whatever the notes, descriptions, filters and names say', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.integer({ min: 1, max: 10_000 }),
          writing: fc.array(fc.integer({ min: 0, max: WRITINGS.length - 1 }), {
            minLength: 6,
            maxLength: 6,
          }),
          scoped: fc.boolean(),
        }),
        async ({ seed, writing, scoped }) => {
          const dir = tempDir()
          const subs = releaseSubmissions(60, seed)
          const named = [...new Set(subs.map((s) => mturkWorkerId(s.workerExternalId ?? '')))]
          const [a = '', b = ''] = named
          const say = (i: number, id: string) => (WRITINGS[writing[i] ?? 0] ?? String)(id)
          // The source file's name names a worker too.
          const csv = join(dir, `batch-${a}.csv`)
          writeReleaseCsv(csv, subs, { workerStyle: 'mturk', ratingStyle: 'int' })
          // Test-set rows name their workers in a list, one of them not a worker of the project.
          const stranger = mturkWorkerId('999999')
          const testSet = join(dir, 'test_set_answer_key.csv')
          writeTestCsv(
            testSet,
            [...generateTestSet({ count: 4, seed })].map((t) => ({
              ...t,
              workerRef: joinReferences([a, stranger, b]),
            })),
            { answers: true, crlf: true },
          )
          const dbPath = join(dir, 'p.winnow')
          const db = openProject(dbPath, { create: true })
          try {
            importFiles(db, [{ path: csv }, { path: testSet }], {})
            rateFilter(db, { ratings: ['unrated'] }, { value: 3, author: 'lead' })
            const workerA = db
              .prepare('SELECT id FROM workers WHERE external_id = ?')
              .pluck()
              .get(a) as number
            rateWorker(db, {
              workerId: workerA,
              value: 2,
              from: day('2000-01-01'),
              author: 'lead',
              note: `same as ${say(0, b)}`,
            })
            rateFilter(db, { workers: [b] }, { value: 3, author: 'lead', note: say(1, a) })
            const source = `import { definePolicy, rule } from './winnow-policy'
export default definePolicy({
  name: ${JSON.stringify(`Demote ${say(2, b)}`)},
  params: {},
  rules() {
    return [rule({ name: 'r', where: { workers: ['${b}'] }, to: 1, reason: 'see ${a}' })]
  },
})
`
            await applyPolicy(db, { source, fileName: `policies/${a}.ts`, author: 'lead' })
            const audit = drawAudit(db, {
              name: `check ${say(3, a)}`,
              filter: { workers: [a] },
              n: 2,
              seed: 1,
              author: 'lead',
            })
            judge(db, {
              auditId: audit.result.id,
              annotationId: audit.items[0]?.annotationId ?? 0,
              verdict: 'yes',
              author: 'lead',
            })
            saveReleaseSettings(
              db,
              dbPath,
              {
                card: {
                  name: `GLUCOSE from ${say(4, a)}`,
                  description: `Rated with ${say(5, b)}.`,
                  license: 'cc-by-4.0',
                  url: `https://data.glucose.dev/${a}`,
                  creator: b,
                },
              },
              'lead',
            )
          } finally {
            db.close()
          }

          const out = join(dir, 'release')
          const run = await cli(
            'export',
            '--db',
            dbPath,
            '--out',
            out,
            '--pseudonymize',
            '--format',
            'csv,jsonl,parquet',
            '--split-test',
            '1',
            '--split-tier',
            '1',
            '--seed',
            a,
            ...(scoped ? ['--worker', a, '--worker', b] : []),
            '--json',
          )
          expect(run.stderr).toBe('')
          expect(run.code).toBe(0)
          const { files } = run.json as { files: { rows: number }[] }
          expect(files.reduce((n, f) => n + f.rows, 0)).toBeGreaterThan(0)

          const project = openProject(dbPath)
          const ids = [
            ...(project.prepare('SELECT external_id FROM workers').pluck().all() as string[]),
            stranger,
          ]
          const pseudonymOfA = project
            .prepare(
              'SELECT pseudonym FROM worker_pseudonyms JOIN workers ON id = worker_id WHERE external_id = ?',
            )
            .pluck()
            .get(a) as number
          project.close()
          const texts = await releaseTexts(out)
          expect([...texts.keys()]).toContain('datasheet.md')
          for (const [file, text] of texts) {
            const lower = text.toLowerCase()
            for (const id of ids)
              expect(lower, `${file} names ${id}`).not.toContain(id.toLowerCase())
          }
          // The worker's change set is still there, under the worker's pseudonym.
          expect(texts.get('datasheet.md')).toContain(`Worker ${pseudonymOfA} rated 2`)
          if (!scoped) expect(texts.get('data/tier-3-train.csv')).toMatch(/,\d+\*{4}\?\*{4}\d+,/)
        },
      ),
      { numRuns: 5 },
    )
  })

  it('writes a worker’s pseudonym where the text names them, and leaves other words and numbers alone', () => {
    const workers = new WorkerPseudonyms(
      new Map([
        [1, 'A3PPQWERTY1234'],
        [2, '12'],
        [3, 'W7'],
      ]),
      new Map([
        [1, 5],
        [2, 6],
        [3, 7],
      ]),
    )
    expect(
      workers.text('Worker A3PPQWERTY1234 rated 3 from 2024-01-02 — like a3ppqwerty1234'),
    ).toBe('Worker 5 rated 3 from 2024-01-02 — like 5')
    expect(workers.text('see xA3PPQWERTY1234y')).toBe('see x5y')
    // An id of digits only is a worker only where the text says so; elsewhere it is a number.
    expect(workers.text('Rated 12: query worker 12 · dimension 12 (12 annotations)')).toBe(
      'Rated 12: query worker 6 · dimension 12 (12 annotations)',
    )
    // A short id is a whole word, not a part of one.
    expect(workers.text('W7 and W70 and aW7')).toBe('7 and W70 and aW7')
    expect(workers.filter({ workers: ['A3PPQWERTY1234', 'NOTINPROJECT'], text: 'W7' })).toEqual({
      workers: ['5', 'a worker not in the project'],
      text: '7',
    })
  })
})
