import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { openProject } from '../../src/main/db/connection'
import { htmlFormAnswerXml, seedDemo } from '../../standin/index'
import { useTempDir } from '../helpers/tmp'
import { CREDENTIALS, useStandin } from './standin-helpers'

const start = useStandin()
const tempDir = useTempDir()

describe('winnow pull and winnow worker', () => {
  const saved = { ...process.env }
  beforeEach(() => {
    process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId
    process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey
    delete process.env.AWS_PROFILE
  })
  afterEach(() => {
    process.env = { ...saved }
  })

  it('pulls, pulls only what is new, and acts on workers, printing what was sent', async () => {
    const { standin } = await start()
    const seed = seedDemo(standin.state, { hits: 10, assignmentsPerHit: 3 })
    const db = join(tempDir(), 'p.winnow')
    const common = ['--db', db, '--endpoint', standin.url, '--json']

    const first = await cli('pull', '--all', ...common)
    expect(first.code).toBe(0)
    expect(first.json).toEqual({ hits: 10, assignments: 30, new: 30, updated: 0 })
    const practice = seed.hits.find((h) => h.Title.includes('practice'))?.HITTypeId
    const byType = await cli('pull', '--hit-type', practice ?? '', '--new', ...common)
    expect(byType.json).toEqual({ hits: 1, assignments: 0, new: 0, updated: 0 })
    const again = await cli('pull', '--title', 'GLUCOSE', '--new', ...common)
    expect(again.json).toEqual({ hits: 10, assignments: 0, new: 0, updated: 0 })

    const a = seed.assignments[0]
    if (!a) throw new Error('no assignment')
    const bonus = await cli(
      'worker',
      'bonus',
      '--assignment',
      a.AssignmentId,
      '--amount',
      '0.25',
      '--reason',
      'Thanks',
      ...common,
    )
    expect(bonus.code).toBe(0)
    expect(bonus.json).toMatchObject({
      action: 'bonus',
      succeeded: 1,
      entries: [
        {
          request: {
            WorkerId: a.WorkerId,
            AssignmentId: a.AssignmentId,
            BonusAmount: '0.25',
            Reason: 'Thanks',
          },
          response: {},
        },
      ],
    })
    const text = await cli(
      'worker',
      'notify',
      '--worker',
      seed.workers[0] ?? '',
      '--worker',
      seed.workers[1] ?? '',
      '--subject',
      'Hi',
      '--message',
      'More soon',
      '--db',
      db,
      '--endpoint',
      standin.url,
    )
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(
      /notify sent \{"Subject":"Hi".*\n {2}→ \{"NotifyWorkersFailureStatuses"/,
    )
    for (const out of [first, bonus, text])
      expect(out.stdout + out.stderr).not.toContain(CREDENTIALS.secretAccessKey)

    const project = openProject(db)
    const recorded = project.prepare('SELECT count(*) FROM worker_actions').pluck().get()
    project.close()
    expect(recorded).toBe(2)
  })

  it('exits 1 when any request of a worker action failed, after printing every answer', async () => {
    const { standin } = await start()
    const seed = seedDemo(standin.state, { hits: 2, assignmentsPerHit: 2 })
    const db = join(tempDir(), 'p.winnow')
    const common = ['--db', db, '--endpoint', standin.url]
    expect((await cli('pull', '--all', ...common)).code).toBe(0)
    const unknown = '3ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ'
    const approve = await cli('worker', 'approve', '--assignment', unknown, ...common)
    expect(approve.stdout).toMatch(/0 succeeded, 1 failed/)
    expect(approve.code).toBe(1)
    const fine = await cli(
      'worker',
      'block',
      '--worker',
      seed.workers[0] ?? '',
      '--reason',
      'Spam',
      ...common,
    )
    expect(fine.code).toBe(0)
  })

  it('reads HITs with other field names through a mapping file', async () => {
    const { standin } = await start()
    const hit = standin.state.addHIT({ Title: 'Other layout', MaxAssignments: 1 })
    standin.state.addAssignment({
      HITId: hit.HITId,
      WorkerId: 'AMAPPED1',
      Answer: htmlFormAnswerXml({
        sid: '0b6f1c9e-0000-4000-a000-000000000001',
        text: 'Sam woke up. Sam ate.',
        idx: '0',
        sent: 'Sam woke up.',
        cause: 'Sam is tired >Causes/Enables> Sam woke up',
        rule: 'Someone_A is tired >Causes/Enables> Someone_A wakes up',
      }),
    })
    const dir = tempDir()
    const map = join(dir, 'map.json')
    writeFileSync(
      map,
      JSON.stringify({
        sid: 'story_id',
        text: 'story',
        idx: 'selected_sentence_index',
        sent: 'selected_sentence',
        cause: '1_specificNL',
        rule: '1_generalNL',
      }),
    )
    const db = join(dir, 'p.winnow')
    const pulled = await cli(
      'pull',
      '--all',
      '--mapping',
      map,
      '--db',
      db,
      '--endpoint',
      standin.url,
      '--json',
    )
    expect(pulled.json).toEqual({ hits: 1, assignments: 1, new: 1, updated: 0 })
    const project = openProject(db)
    const annotations = project.prepare('SELECT count(*) FROM annotations').pluck().get()
    project.close()
    expect(annotations).toBe(1)
    // A mapping with problems: the file and each field at fault are named, and nothing is pulled.
    const requests = standin.state.requests.length
    writeFileSync(map, JSON.stringify({ sid: 'story_identifier', text: 'story', idx: 'story' }))
    const refused = await cli(
      'pull',
      '--all',
      '--mapping',
      map,
      '--db',
      db,
      '--endpoint',
      standin.url,
    )
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`--mapping ${map}: sid: unknown column story_identifier`)
    expect(refused.stderr).toContain('idx and text both map to story')
    writeFileSync(map, '{"sid": 7}')
    const notText = await cli(
      'pull',
      '--all',
      '--mapping',
      map,
      '--db',
      db,
      '--endpoint',
      standin.url,
    )
    expect(notText.stderr).toContain(`${map}: sid: the column must be a name in quotes`)
    writeFileSync(map, '{"sid": "story_id",')
    expect((await cli('pull', '--all', '--mapping', map, '--db', db)).stderr).toContain(
      `${map}: not JSON`,
    )
    expect(standin.state.requests.length).toBe(requests)
    const after = openProject(db)
    expect(after.prepare('SELECT count(*) FROM submissions').pluck().get()).toBe(1)
    after.close()
  })

  it('exits 2 on usage errors and 1 without credentials', async () => {
    const db = join(tempDir(), 'p.winnow')
    expect((await cli('pull', '--db', db, '--endpoint', 'sandbox')).code).toBe(2)
    expect(
      (await cli('pull', '--all', '--title', 'x', '--db', db, '--endpoint', 'sandbox')).code,
    ).toBe(2)
    expect((await cli('pull', '--all', '--db', db, '--endpoint', 'ftp://example.com')).code).toBe(2)
    expect((await cli('pull', '--all', '--db', db, '--endpoint', 'http://example.com')).code).toBe(
      2,
    )
    expect((await cli('worker', 'frobnicate', '--db', db, '--endpoint', 'sandbox')).code).toBe(2)
    expect(
      (await cli('worker', 'reject', '--assignment', 'A1', '--db', db, '--endpoint', 'sandbox'))
        .code,
    ).toBe(2)
    expect(
      (
        await cli(
          'worker',
          'bonus',
          '--assignment',
          'A1',
          '--amount',
          '-1',
          '--reason',
          'r',
          '--worker',
          'AW1',
          '--db',
          db,
          '--endpoint',
          'sandbox',
        )
      ).code,
    ).toBe(2)
    delete process.env.AWS_ACCESS_KEY_ID
    process.env.AWS_SHARED_CREDENTIALS_FILE = join(db, 'none')
    const missing = await cli('pull', '--all', '--db', db, '--endpoint', 'sandbox')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/No MTurk access key/)
    expect(
      (await cli('pull', '--all', '--profile', 'x', '--db', db, '--endpoint', 'sandbox')).code,
    ).toBe(1)
  })
})
