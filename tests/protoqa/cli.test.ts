import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'

const fixture = (name: string): string => join(import.meta.dirname, '../fixtures/protoqa', name)

describe('winnow protoqa', () => {
  const tempDir = useTempDir()

  it('import --json counts questions, answers and clusters', async () => {
    const db = join(tempDir(), 'p.winnow')
    const run = await cli('protoqa', 'import', fixture('questions.jsonl'), '--db', db, '--json')
    expect(run.code).toBe(0)
    expect(run.json).toMatchObject({ questions: 2, answers: 11, clusters: 7 })
  })

  it('score --json prints every metric under the evaluator names, from either prediction shape, without --db', async () => {
    const json = await cli(
      'protoqa',
      'score',
      '--targets',
      fixture('questions.jsonl'),
      '--predictions',
      fixture('predictions.json'),
      '--json',
    )
    const jsonl = await cli(
      'protoqa',
      'score',
      '--targets',
      fixture('questions.jsonl'),
      '--predictions',
      fixture('predictions.jsonl'),
      '--json',
    )
    expect(json.code).toBe(0)
    expect(jsonl.json).toEqual(json.json)
    const metrics = (
      json.json as {
        metrics: Record<string, { mean: number; perQuestion: Record<string, number> }>
      }
    ).metrics
    expect(Object.keys(metrics)).toEqual([
      'Max Answers - None',
      'Max Answers - 1',
      'Max Answers - 3',
      'Max Answers - 5',
      'Max Answers - 10',
      'Max Incorrect - None',
      'Max Incorrect - 1',
      'Max Incorrect - 3',
      'Max Incorrect - 5',
    ])
    // t1q1: keys (60) and phone (30), then two misses, then wallet (9); t1q2: lemon (25 of 70).
    expect(metrics['Max Answers - 1']?.perQuestion).toEqual({ t1q1: 1, t1q2: 25 / 70 })
    expect(metrics['Max Answers - None']?.mean).toBeCloseTo((0.99 + 0.25) / 2, 12)
    expect(metrics['Max Incorrect - 1']?.perQuestion.t1q1).toBeCloseTo(0.9, 12)
  })

  it('agreement --json without two reviewers says so; usage errors exit 2', async () => {
    const db = join(tempDir(), 'p.winnow')
    await cli('protoqa', 'import', fixture('questions.jsonl'), '--db', db)
    const run = await cli('protoqa', 'agreement', '--db', db, '--json')
    expect(run.json).toEqual({ questions: [], overall: null })
    const missing = await cli('protoqa', 'agreement', '--db', db, '--question', 't1q1')
    expect(missing.code).toBe(1)
    expect((await cli('protoqa', 'frobnicate')).code).toBe(2)
    expect(
      (
        await cli(
          'protoqa',
          'score',
          '--targets',
          'x',
          '--predictions',
          'y',
          '--similarity',
          'cosine',
        )
      ).code,
    ).toBe(2)
  })

  it('export --collection protoqa asks the registry for the ProtoQA release; protoqa export is its alias', async () => {
    const dir = tempDir()
    const db = join(dir, 'p.winnow')
    expect((await cli('protoqa', 'import', fixture('questions.jsonl'), '--db', db)).code).toBe(0)
    const [viaExport, viaAlias] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')]
    const run = await cli(
      'export',
      '--collection',
      'protoqa',
      '--db',
      db,
      '--out',
      viaExport,
      '--datasheet',
      join(dir, 'a.md'),
      '--json',
    )
    expect(run.stderr).toBe('')
    expect(run.json).toEqual({ questions: 2, unclustered: [], belowSelection: [] })
    expect(readFileSync(viaExport, 'utf8')).toBe(readFileSync(fixture('questions.jsonl'), 'utf8'))
    expect(readFileSync(join(dir, 'a.md'), 'utf8')).toMatch(/^# ProtoQA datasheet/)
    expect((await cli('protoqa', 'export', '--db', db, '--out', viaAlias)).code).toBe(0)
    expect(readFileSync(viaAlias, 'utf8')).toBe(readFileSync(viaExport, 'utf8'))
  })

  it("export --collection protoqa refuses the core's options it cannot honour, and HALIE's --task", async () => {
    const dir = tempDir()
    const db = join(dir, 'p.winnow')
    expect((await cli('protoqa', 'import', fixture('questions.jsonl'), '--db', db)).code).toBe(0)
    const out = join(dir, 'out.jsonl')
    const protoqaExport = (...more: string[]) =>
      cli('export', '--collection', 'protoqa', '--db', db, '--out', out, ...more)
    const tiers = await protoqaExport('--tiers', '3')
    expect(tiers.code).toBe(2)
    expect(tiers.stderr).toMatch(/--tiers is not for a protoqa release: .*no tiers/)
    const filter = await protoqaExport('--worker', 'w1')
    expect(filter.stderr).toMatch(/--worker is not for a protoqa release: .*filters select GLUCOSE/)
    const task = await protoqaExport('--task', 'metaphor')
    expect(task.stderr).toMatch(/--task is for --collection halie/)
    const glucose = await cli('export', '--db', db, '--out', join(dir, 'r'), '--datasheet', 'x.md')
    expect(glucose.stderr).toMatch(/--datasheet is for --collection protoqa/)
    const unknown = await cli('export', '--collection', 'crowdaq', '--db', db, '--out', out)
    expect(unknown.stderr).toMatch(/--collection must be glucose, protoqa, halie, got 'crowdaq'/)
    expect(existsSync(out)).toBe(false)
  })
})
