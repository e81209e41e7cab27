import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { importProtoqaFiles } from '../../src/main/collections/protoqa/import/run'
import { Session } from '../../src/main/session'
import type { CallName, CallResult } from '../../src/shared/contract'
import { useTempDir } from '../helpers/tmp'

const fixture = (name: string): string => join(import.meta.dirname, '../fixtures/protoqa', name)

describe('scoring in the app', () => {
  const tempDir = useTempDir()

  function project(): Session {
    const session = new Session('cli', () => undefined)
    session.open(join(tempDir(), 'p.winnow'), { create: true })
    importProtoqaFiles(session.project().db, [
      { path: fixture('questions.jsonl') },
      { path: fixture('synonym-predictions.json') },
    ])
    return session
  }

  async function call<K extends CallName>(
    session: Session,
    name: K,
    args: object,
  ): Promise<CallResult<K>> {
    const outcome = await dispatch(name, args, { session })
    if (!outcome.ok) throw new Error(outcome.error.message)
    return outcome.value as CallResult<K>
  }

  it('scores a set by exact match or WordNet similarity', async () => {
    const session = project()
    const mean = (rows: { metric: string; mean: number }[]) =>
      rows.find((r) => r.metric === 'Max Answers - 10')?.mean
    // t1q1: telephone and billfold are no cluster's member, but WordNet synonyms of phone (30)
    // and wallet (9), of 100; t1q2: lemon, 25 of 100, either way.
    expect(mean(await call(session, 'protoqa.scoreSet', { set: 1 }))).toBeCloseTo(0.125, 12)
    expect(
      mean(await call(session, 'protoqa.scoreSet', { set: 1, similarity: 'wordnet' })),
    ).toBeCloseTo((0.39 + 0.25) / 2, 12)
    session.close()
  })

  it('shows which cluster and which member each answer matched', async () => {
    const session = project()
    const args = { set: 1, question: 't1q1', metric: 'Max Answers - 10' }
    const exact = await call(session, 'protoqa.score', args)
    expect(exact.similarity).toBe('exact')
    expect(exact.score.points).toBe(0)
    expect(exact.matched).toEqual([null, null, null])

    const wordnet = await call(session, 'protoqa.score', { ...args, similarity: 'wordnet' })
    expect(wordnet.score).toMatchObject({ points: 39, oracle: 100 })
    expect(wordnet.score.answers.map((a) => a.cluster)).toEqual([1, 2, null])
    expect(wordnet.matched).toEqual(['phone', 'wallet', null])
    session.close()
  })

  it('refuses a similarity it does not know, naming the field', async () => {
    const session = project()
    const outcome = await dispatch('protoqa.scoreSet', { set: 1, similarity: 'fuzzy' }, { session })
    expect(outcome).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'similarity' },
    })
    session.close()
  })
})
