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
})
