import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import { Session } from '../../src/main/session'
import { startImportJob } from '../../src/main/tasks/importJob'
import type { EventPayload } from '../../src/shared/contract'
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

  /** A session that keeps every project.changed it tells the page. */
  function watched(): { session: Session; changes: EventPayload<'project.changed'>[] } {
    const changes: EventPayload<'project.changed'>[] = []
    const session = new Session('cli', (name, payload) => {
      if (name === 'project.changed') changes.push(payload as EventPayload<'project.changed'>)
    })
    return { session, changes }
  }

  it('are none in a new project, and each one its first import adds, as the import finishes', async () => {
    const { session, changes } = watched()
    const path = join(tempDir(), 'p.winnow')
    expect(session.open(path, { create: true }).collections).toEqual([])
    expect(await held(session)).toEqual([])

    // Predictions alone are ProtoQA work too.
    const work = {
      collection: 'protoqa' as const,
      files: [{ path: join(fixtures, 'protoqa/predictions.json') }],
      options: {},
    }
    startImportJob(session, path, work, 'here')
    await session.jobs.idle()
    expect(changes.at(-1)).toMatchObject({ reason: 'data', project: { collections: ['protoqa'] } })
    expect(await held(session)).toEqual(['protoqa'])

    const exam = { collection: 'crowdaq' as const, path: join(fixtures, 'crowdaq/exam.json') }
    startImportJob(session, path, { ...exam, options: { author: 'test' } }, 'here')
    await session.jobs.idle()
    expect(changes.at(-1)?.project?.collections).toEqual(['protoqa', 'crowdaq'])
    session.close()

    // Opening the project finds them again.
    const again = watched()
    expect(again.session.open(path).collections).toEqual(['protoqa', 'crowdaq'])
    expect(again.changes).toMatchObject([
      { reason: 'opened', project: { collections: ['protoqa', 'crowdaq'] } },
    ])
    again.session.close()
  })

  it('are what the project was found to hold until an import: other writes do not look again', () => {
    const { session, changes } = watched()
    const path = join(tempDir(), 'p.winnow')
    session.open(path, { create: true })
    // Written behind the session's back (as another program would): not looked up again until
    // an import finishes or the project is opened again.
    importCrowdaq(session.project().db, join(fixtures, 'crowdaq/exam.json'), { author: 'test' })
    session.dataChanged()
    expect(changes.at(-1)?.project?.collections).toEqual([])
    session.dataChanged({ collections: true })
    expect(changes.at(-1)?.project?.collections).toEqual(['crowdaq'])
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
