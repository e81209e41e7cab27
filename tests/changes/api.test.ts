import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { Session } from '../../src/main/session'
import type { AuditDetail } from '../../src/shared/contract/audits'
import type { ChangeSetSummary, UndoState } from '../../src/shared/contract/ratings'
import type { TriageQueue } from '../../src/shared/contract/triage'
import { useTempDir } from '../helpers/tmp'
import { projectWith } from '../triage/fixture'

describe('the page records and undoes marks and verdicts through the API', () => {
  const tempDir = useTempDir()

  function open() {
    const dir = tempDir()
    projectWith(dir, [
      { worker: 'ANN', at: '2019-09-05', dims: [1, 2] },
      { worker: 'BOB', at: '2019-09-05', dims: [3] },
    ]).close()
    const events: string[] = []
    const session = new Session('cli', (name) => events.push(name))
    session.open(join(dir, 'triage.winnow'))
    events.length = 0
    const call = async <T>(name: string, args: unknown): Promise<T> => {
      const outcome = await dispatch(name, args, { session })
      if (!outcome.ok) throw new Error(outcome.error.message)
      return outcome.value as T
    }
    return { session, events, call }
  }

  it('a mark tells the page, is listed in History, and Undo takes it back', async () => {
    const { session, events, call } = open()
    const queue = await call<TriageQueue>('triage.startQueue', {
      from: '2019-09-05',
      to: '2019-09-05',
      share: 1,
      seed: 2,
    })
    const annotationId = queue.items[0]?.annotationIds[0] ?? 0
    const marked = await call<TriageQueue>('triage.mark', {
      queueId: queue.id,
      annotationId,
      mark: 'needs-work',
      note: 'too short',
    })
    expect(marked.items[0]?.marks).toMatchObject([{ mark: 'needs-work', note: 'too short' }])
    expect(events).toEqual(['history.changed', 'history.changed'])

    const { changeSets } = await call<{ changeSets: ChangeSetSummary[] }>('ratings.history', {})
    expect(changeSets[0]).toMatchObject({
      kind: 'triage',
      description: expect.stringMatching(
        /^Marked needs work: submission \d+, dimension \d+/,
      ) as unknown,
      changed: 0,
      revertable: true,
      revertedBy: null,
    })
    const state = await call<UndoState>('ratings.undoState', {})
    expect(state.undo?.id).toBe(changeSets[0]?.id)

    events.length = 0
    expect(await call('ratings.undo', {})).toMatchObject({ preview: false, rows: 1, changed: 0 })
    const after = await call<TriageQueue>('triage.queue', { queueId: queue.id })
    expect(after.items[0]?.marks).toEqual([])
    const listed = await call<{ changeSets: ChangeSetSummary[] }>('ratings.history', { limit: 2 })
    expect(listed.changeSets.map((c) => [c.kind, c.revertOf, c.revertedBy])).toEqual([
      ['revert', { id: changeSets[0]?.id, redo: false, kind: 'triage' }, null],
      ['triage', null, listed.changeSets[0]?.id],
    ])
    session.close()
  })

  it('a verdict likewise', async () => {
    const { session, events, call } = open()
    const audit = await call<AuditDetail>('audits.draw', {
      name: 'spot',
      filter: {},
      n: 2,
      seed: 1,
    })
    const annotationId = audit.items[0]?.annotationId ?? 0
    await call('audits.judge', { auditId: audit.result.id, annotationId, verdict: 'no' })
    expect(events).toEqual(['history.changed', 'history.changed'])
    await call('ratings.undo', {})
    const detail = await call<AuditDetail>('audits.get', { auditId: audit.result.id })
    expect(detail.result).toMatchObject({ judged: 0, no: 0 })
    await call('ratings.redo', {})
    const again = await call<AuditDetail>('audits.get', { auditId: audit.result.id })
    expect(again.result).toMatchObject({ judged: 1, no: 1 })
    session.close()
  })
})
