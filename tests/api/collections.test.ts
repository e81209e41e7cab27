import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { importCrowdaq } from '../../src/main/importers/crowdaq/import'
import { importProtoqaFiles } from '../../src/main/importers/protoqa/run'
import { Session } from '../../src/main/session'
import { PAGES, pageDigit, pageShown } from '../../src/shared/pages'
import { useTempDir } from '../helpers/tmp'

const fixtures = join(import.meta.dirname, '../fixtures')

describe('the collections a project holds', () => {
  const tempDir = useTempDir()

  async function held(session: Session): Promise<unknown> {
    const outcome = await dispatch('project.collections', {}, { session })
    if (!outcome.ok) throw new Error(outcome.error.message)
    return outcome.value
  }

  it('are none in a new project, and each one its first import adds', async () => {
    const session = new Session('cli', () => undefined)
    session.open(join(tempDir(), 'p.winnow'), { create: true })
    const { db } = session.project()
    expect(await held(session)).toEqual([])

    // Predictions alone are ProtoQA work too.
    importProtoqaFiles(db, [{ path: join(fixtures, 'protoqa/predictions.json') }])
    expect(await held(session)).toEqual(['protoqa'])

    importCrowdaq(db, join(fixtures, 'crowdaq/exam.json'), { author: 'test' })
    expect(await held(session)).toEqual(['protoqa', 'crowdaq'])
    session.close()
  })

  it('asks for an open project', async () => {
    const outcome = await dispatch(
      'project.collections',
      {},
      { session: new Session('cli', () => undefined) },
    )
    expect(outcome).toMatchObject({ ok: false, error: { code: 'no-project' } })
  })
})

describe('pages of collections', () => {
  const ids = (held: Parameters<typeof pageShown>[1], open?: (typeof PAGES)[number]['id']) =>
    PAGES.filter((p) => pageShown(p, held, open)).map((p) => p.id)

  it('show when the project holds the collection, or while open', () => {
    expect(ids([])).not.toContain('protoqa')
    expect(ids([])).not.toContain('crowdaq')
    expect(ids([])).toContain('release')
    expect(ids(['protoqa'])).toContain('protoqa')
    expect(ids(['protoqa'])).not.toContain('crowdaq')
    expect(ids([], 'crowdaq')).toContain('crowdaq')
  })

  it('keep their digit when another tab hides', () => {
    expect(pageDigit('review')).toBe(1)
    expect(pageDigit('protoqa')).toBe(7)
    expect(pageDigit('crowdaq')).toBe(8)
  })
})
