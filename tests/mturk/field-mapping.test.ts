import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { environmentSecrets, sessionSecrets } from '../../src/main/mturk/credentials'
import { htmlFormAnswerXml } from '../../standin/index'
import type { Standin } from '../../standin/index'
import { Session } from '../../src/main/session'
import type { Outcome } from '../../src/shared/contract/errors'
import type { MTurkFieldMapping } from '../../src/shared/contract/mturk'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { count } from './project-helpers'
import { CREDENTIALS, useStandin } from './standin-helpers'

const start = useStandin()
const tempDir = useTempDir()

const MAPPING = {
  sid: 'story_id',
  text: 'story',
  idx: 'selected_sentence_index',
  sent: 'selected_sentence',
  cause: '1_specificNL',
  rule: '1_generalNL',
}

/** A HIT of another layout: its form fields are not named like the release columns. */
function otherLayoutHit(standin: Standin, n: number): void {
  const hit = standin.state.addHIT({ Title: `Other layout ${n}`, MaxAssignments: 1 })
  standin.state.addAssignment({
    HITId: hit.HITId,
    WorkerId: `AMAPPED${n}`,
    Answer: htmlFormAnswerXml({
      sid: `0b6f1c9e-0000-4000-a000-00000000000${n}`,
      text: 'Sam woke up. Sam ate.',
      idx: '0',
      sent: 'Sam woke up.',
      cause: 'Sam is tired >Causes/Enables> Sam woke up',
      rule: 'Someone_A is tired >Causes/Enables> Someone_A wakes up',
    }),
  })
}

describe('a field mapping chosen for the project', () => {
  const saved = { ...process.env }
  beforeEach(() => {
    process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId
    process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey
  })
  afterEach(() => {
    process.env = { ...saved }
  })

  it('is checked, remembered, used by pulls in the app and on the command line', async () => {
    const { standin } = await start()
    otherLayoutHit(standin, 1)
    const dir = tempDir()
    const project = join(dir, 'p.winnow')
    const session = new Session('serve', () => undefined, {
      secrets: sessionSecrets(environmentSecrets({ env: {} })),
    })
    session.open(project, { create: true })
    const call = (name: string, args: unknown = {}): Promise<Outcome<unknown>> =>
      dispatch(name, args, { session })
    const upload = (name: string, content: string) => {
      const path = join(tempDir(), name)
      writeFileSync(path, content)
      return session.registerUpload(path, name).ref
    }
    await call('mturk.saveSettings', { endpoint: 'custom', customUrl: standin.url })
    await call('mturk.setCredentials', CREDENTIALS)
    expect(await call('mturk.fieldMapping')).toEqual({ ok: true, value: null })

    // Problems name the file and the fields; nothing is remembered.
    const bad = await call('mturk.setFieldMapping', {
      file: upload('layout.json', JSON.stringify({ ...MAPPING, sid: 'story_identifier' })),
    })
    expect(bad).toMatchObject({
      ok: false,
      error: {
        code: 'bad-field-mapping',
        file: 'layout.json',
        field: 'sid',
        message: 'layout.json: sid: unknown column story_identifier',
      },
    })
    const twice = await call('mturk.setFieldMapping', {
      file: upload('twice.json', JSON.stringify({ a: '1_generalNL', b: '1_generalNL' })),
    })
    expect(twice).toMatchObject({
      ok: false,
      error: {
        file: 'twice.json',
        field: 'b',
        message: 'twice.json: b and a both map to 1_generalNL',
      },
    })
    const notGranted = await call('mturk.setFieldMapping', {
      file: { kind: 'path', path: join(dir, 'elsewhere.json') },
    })
    expect(notGranted).toMatchObject({ ok: false, error: { code: 'file-not-granted' } })
    expect(await call('mturk.fieldMapping')).toEqual({ ok: true, value: null })

    const chosen = await call('mturk.setFieldMapping', {
      file: upload('layout.json', JSON.stringify(MAPPING)),
    })
    const view: MTurkFieldMapping = {
      name: 'layout.json',
      fields: Object.entries(MAPPING).map(([field, column]) => ({ field, column })),
    }
    expect(chosen).toEqual({ ok: true, value: view })

    // A pull in the app reads the HIT through it.
    await call('mturk.pull', { mode: 'all' })
    await session.jobs.idle()
    const { db } = session.project()
    expect(count(db, 'SELECT count(*) FROM annotations')).toBe(1)
    session.close()

    // Remembered with the project: reopened, and on the command line without --mapping.
    session.open(project)
    expect(await call('mturk.fieldMapping')).toEqual({ ok: true, value: view })
    session.close()
    otherLayoutHit(standin, 2)
    const pulled = await cli(
      'pull',
      '--all',
      '--new',
      '--db',
      project,
      '--endpoint',
      standin.url,
      '--json',
    )
    expect(pulled.json).toMatchObject({ new: 1 })
    session.open(project)
    expect(count(session.project().db, 'SELECT count(*) FROM annotations')).toBe(2)

    // Back to the release column names.
    expect(await call('mturk.setFieldMapping', { file: null })).toEqual({ ok: true, value: null })
    expect(await call('mturk.fieldMapping')).toEqual({ ok: true, value: null })
    session.close()
  })
})
