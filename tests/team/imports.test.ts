import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { ok } from '../helpers/cli'
import { restoreEnvAfterEach } from '../helpers/env'
import { dimensionCsvs, releaseCsv } from '../helpers/glucose'
import { noPostgres } from '../helpers/postgres'
import { type TeamDatabase, usePostgres } from '../helpers/team'
import { useTempDir } from '../helpers/tmp'
import { htmlFormAnswerXml, seedDemo } from '../../standin/index'
import { assignmentIdFor, mturkWorkerId } from '../../src/main/synth/workers'
import { CREDENTIALS, useStandin } from '../mturk/standin-helpers'

/**
 * Imports made on a replica after publishing travel: their rows go to the server by COPY with the
 * change set that made them, and every other replica fetches them when it pulls that change set.
 */
const root = join(import.meta.dirname, '..', '..')

// Needs a PostgreSQL server (tests/helpers/postgres.ts starts one); where none exists the suite
// skips and the helper says why.
describe.skipIf(noPostgres !== null)('team mode: imports after publishing', () => {
  const postgres = usePostgres({ db: 'imports', lead: 'ilead' })
  const tempDir = useTempDir()
  const standin = useStandin()
  restoreEnvAfterEach('AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE')

  /** A published lead's project and members joined with the given roles. */
  async function team(
    dir: string,
    members: [string, 'lead' | 'reviewer'][],
  ): Promise<{ db: string; lead: string; replicas: Record<string, string>; team: TeamDatabase }> {
    const t = await postgres.teamDatabase(dir)
    const lead = join(dir, 'lead.winnow')
    await ok('import', releaseCsv(dir, 'first.csv', 10, 7), '--db', lead)
    await t.publish(lead)
    const replicas: Record<string, string> = {}
    for (const [name, role] of members) replicas[name] = await t.join(lead, name, role)
    return { db: t.db, lead, replicas, team: t }
  }

  /** The bulk data as plain rows, the change set that brought a row named by its global id. */
  function bulk(path: string): Record<string, unknown[]> {
    const db = openProject(path, { readonly: true })
    try {
      const rows = (query: string): unknown[] => db.prepare(query).raw().all()
      return {
        workers: rows('SELECT id, external_id FROM workers ORDER BY id'),
        stories: rows('SELECT id, external_id, text FROM stories ORDER BY id'),
        sentences: rows('SELECT story_id, idx, text FROM sentences ORDER BY story_id, idx'),
        sourceFiles: rows(`SELECT f.id, f.name, f.sha256, f.records, c.uid FROM source_files f
          JOIN change_sets c ON c.id = f.change_set_id ORDER BY f.id`),
        submissions: rows(`SELECT s.id, s.source_key, s.assignment_id, s.worker_id, s.story_id,
            s.sentence_index, s.submitted_at, s.file_rating, s.source_file_id, s.flags, c.uid
          FROM submissions s JOIN change_sets c ON c.id = s.change_set_id ORDER BY s.id`),
        annotations: rows(`SELECT id, submission_id, dimension, worker_id, story_id, submitted_at,
          file_rating, rating, rating_source, flags FROM annotations ORDER BY id`),
        texts: rows('SELECT * FROM annotation_texts ORDER BY annotation_id'),
      }
    } finally {
      db.close()
    }
  }

  async function serverCount(db: string, table: string): Promise<number> {
    const result = await postgres.server.admin$(
      `SELECT count(*)::int AS n FROM winnow.${table}`,
      db,
    )
    return (result.rows[0] as { n: number }).n
  }

  it("carries a replica's import after publishing to every replica, searchable there", async () => {
    const dir = tempDir()
    const t = await team(dir, [['rev1', 'reviewer']])
    const rev = t.replicas.rev1 as string
    await ok('import', releaseCsv(dir, 'more.csv', 8, 99), '--db', t.lead)
    expect(bulk(rev)).not.toEqual(bulk(t.lead))

    expect(await ok('team', 'sync', '--db', t.lead)).toMatchObject({ pushed: 1, pulled: 0 })
    expect(await serverCount(t.db, 'submissions')).toBe(18)
    expect(await ok('team', 'sync', '--db', rev)).toMatchObject({ pushed: 0, pulled: 1 })
    const leadRows = bulk(t.lead)
    expect(leadRows.submissions).toHaveLength(18)
    expect(bulk(rev)).toEqual(leadRows)

    // A word only the new file's texts hold is found on the replica that pulled them.
    const db = openProject(rev, { readonly: true })
    const text = db
      .prepare(
        `SELECT t.specific_nl FROM annotation_texts t JOIN annotations a ON a.id = t.annotation_id
         JOIN submissions s ON s.id = a.submission_id JOIN source_files f ON f.id = s.source_file_id
         WHERE f.name = 'more.csv' ORDER BY t.annotation_id LIMIT 1`,
      )
      .pluck()
      .get() as string
    db.close()
    const word = text.split(/\W+/).find((w) => w.length > 3) as string
    const found = (path: string): Promise<Record<string, unknown>> =>
      ok('query', '--db', path, '--text', word)
    expect(await found(rev)).toEqual(await found(t.lead))
    // Totals come from the count summary, kept on the replica that pulled the rows.
    expect(await ok('stats', '--db', rev)).toEqual(await ok('stats', '--db', t.lead))
    expect(JSON.stringify(await found(rev))).toContain(word)
  }, 90_000)

  it('doubles nothing when a push of an import is killed midway and retried', async () => {
    const dir = tempDir()
    const t = await team(dir, [['rev2', 'reviewer']])
    await ok('import', releaseCsv(dir, 'more.csv', 6, 41), '--db', t.lead)

    // Another transaction holds the log's head, so the push waits after its COPY: killed there.
    await t.team.killSyncInPush(t.team.lead, t.lead)
    expect(await serverCount(t.db, 'submissions')).toBe(10)

    expect(await ok('team', 'sync', '--db', t.lead)).toMatchObject({ pushed: 1 })
    // Killed after the server committed but before the project recorded the place: the retry
    // finds the change set in the log and sends its rows no more.
    const db = openProject(t.lead)
    db.exec('DELETE FROM team_change_sets WHERE seq > 1; UPDATE team_state SET seq = 1')
    db.close()
    expect(await ok('team', 'sync', '--db', t.lead)).toMatchObject({ pushed: 1 })
    expect(await serverCount(t.db, 'change_sets')).toBe(2)
    expect(await serverCount(t.db, 'submissions')).toBe(16)
    const annotations = bulk(t.lead).annotations?.length ?? 0
    expect(await serverCount(t.db, 'annotations')).toBe(annotations)
    expect(await ok('team', 'sync', '--db', t.replicas.rev2 as string)).toMatchObject({ pulled: 1 })
    expect(bulk(t.replicas.rev2 as string)).toEqual(bulk(t.lead))
  }, 90_000)

  it('brings two members importing different files at once to every replica', async () => {
    const dir = tempDir()
    const t = await team(dir, [
      ['lead2', 'lead'],
      ['rev3', 'reviewer'],
    ])
    const second = t.replicas.lead2 as string
    const rev = t.replicas.rev3 as string
    // Generated files draw workers and stories from small pools: the two files share some.
    await Promise.all([
      ok('import', releaseCsv(dir, 'a.csv', 12, 5), '--db', t.lead),
      ok('import', releaseCsv(dir, 'b.csv', 12, 6), '--db', second),
    ])
    await Promise.all([ok('team', 'sync', '--db', t.lead), ok('team', 'sync', '--db', second)])
    for (const path of [t.lead, second, rev]) await ok('team', 'sync', '--db', path)
    const leadRows = bulk(t.lead)
    expect(leadRows.submissions).toHaveLength(34)
    // Both files met some of the same workers, named alike on both replicas.
    const db = openProject(t.lead, { readonly: true })
    const shared = db
      .prepare(
        `SELECT count(DISTINCT s.worker_id) FROM submissions s JOIN source_files f ON f.id = s.source_file_id
         WHERE f.name = 'a.csv' AND s.worker_id IN (SELECT s2.worker_id FROM submissions s2
           JOIN source_files f2 ON f2.id = s2.source_file_id WHERE f2.name = 'b.csv')`,
      )
      .pluck()
      .get() as number
    db.close()
    expect(shared).toBeGreaterThan(0)
    expect(bulk(second)).toEqual(leadRows)
    expect(bulk(rev)).toEqual(leadRows)
    expect(await serverCount(t.db, 'submissions')).toBe(34)
  }, 120_000)

  it('carries the dimensions a later file adds to submissions imported earlier to every replica', async () => {
    const dir = tempDir()
    const t = await team(dir, [['rev5', 'reviewer']])
    const rev = t.replicas.rev5 as string
    const files = join(dir, 'dims')
    mkdirSync(files)
    const dims = dimensionCsvs(files, 12, 31).files.map((f) => f.path)
    await ok('import', dims[0] as string, '--year', '2019', '--db', t.lead)
    for (const path of [t.lead, rev]) await ok('team', 'sync', '--db', path)
    const before = bulk(t.lead).annotations?.length ?? 0

    // The other nine files complete the dimensions of the first file's submissions.
    await ok('import', ...dims.slice(1), '--year', '2019', '--db', t.lead)
    const lead = openProject(t.lead, { readonly: true })
    const grown = lead
      .prepare(
        `SELECT count(*) FROM annotations a JOIN submissions s ON s.id = a.submission_id
         JOIN source_files f ON f.id = s.source_file_id WHERE f.name = 'dim_1.csv' AND a.dimension > 1`,
      )
      .pluck()
      .get() as number
    lead.close()
    expect(grown).toBeGreaterThan(0)
    expect(await ok('team', 'sync', '--db', t.lead)).toMatchObject({ pushed: 1 })
    expect(await ok('team', 'sync', '--db', rev)).toMatchObject({ pulled: 1 })
    const leadRows = bulk(t.lead)
    expect(leadRows.annotations?.length).toBeGreaterThan(before)
    expect(await serverCount(t.db, 'annotations')).toBe(leadRows.annotations?.length)
    expect(await serverCount(t.db, 'annotation_texts')).toBe(leadRows.texts?.length)
    expect(bulk(rev)).toEqual(leadRows)
    expect(await ok('stats', '--db', rev)).toEqual(await ok('stats', '--db', t.lead))

    // A member joining afterwards gets them from the server's tables, flags as the lead has them.
    const late = await t.team.join(t.lead, 'late5')
    expect(bulk(late)).toEqual(leadRows)
  }, 120_000)

  it("carries a lead's MTurk pull after publishing to every replica", async () => {
    const dir = tempDir()
    const t = await team(dir, [['rev4', 'reviewer']])
    const rev = t.replicas.rev4 as string
    const { standin: mturk } = await standin()
    seedDemo(mturk.state, { hits: 4, assignmentsPerHit: 3 })
    process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId
    process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey
    delete process.env.AWS_PROFILE
    expect(await ok('pull', '--all', '--db', t.lead, '--endpoint', mturk.url)).toMatchObject({
      new: 12,
    })
    expect(await ok('team', 'sync', '--db', t.lead)).toMatchObject({ pushed: 1 })
    expect(await ok('team', 'sync', '--db', rev)).toMatchObject({ pulled: 1 })
    const leadRows = bulk(t.lead)
    expect(leadRows.submissions).toHaveLength(22)
    expect(bulk(rev)).toEqual(leadRows)
  }, 90_000)

  it('carries the dimensions an MTurk pull adds to a submission a file brought to every replica', async () => {
    const dir = tempDir()
    const t = await team(dir, [['rev7', 'reviewer']])
    const rev = t.replicas.rev7 as string
    const files = join(dir, 'dims')
    mkdirSync(files)
    const { generated } = dimensionCsvs(files, 12, 53)
    await ok('import', join(files, 'dim_1.csv'), '--year', '2019', '--db', t.lead)
    for (const path of [t.lead, rev]) await ok('team', 'sync', '--db', path)

    // The same assignment answered on MTurk with all its dimensions: the pull completes it.
    const s = generated.find(
      (g) => g.annotations.length > 1 && g.annotations.some((a) => a.dimension === 1),
    ) as (typeof generated)[number]
    const fields: Record<string, string> = {
      story_id: s.storyExternalId,
      story: s.storyText,
      selected_sentence_index: String(s.sentenceIndex),
      selected_sentence: s.sentences.find((x) => x.index === s.sentenceIndex)?.text ?? '',
    }
    for (const a of s.annotations) {
      fields[`${a.dimension}_specificNL`] = a.specificNL
      fields[`${a.dimension}_generalNL`] = a.generalNL
      if (a.specificStructured) fields[`${a.dimension}_specificStructured`] = a.specificStructured
      if (a.generalStructured) fields[`${a.dimension}_generalStructured`] = a.generalStructured
    }
    const { standin: mturk } = await standin()
    const hit = mturk.state.addHIT({ Title: 'GLUCOSE story', MaxAssignments: 1 })
    mturk.state.addAssignment({
      HITId: hit.HITId,
      AssignmentId: s.assignmentId ?? assignmentIdFor(s.sourceKey),
      WorkerId: mturkWorkerId(s.workerExternalId as string),
      Answer: htmlFormAnswerXml(fields),
    })
    process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId
    process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey
    delete process.env.AWS_PROFILE
    const before = bulk(t.lead)
    await ok('pull', '--all', '--db', t.lead, '--endpoint', mturk.url)
    const leadRows = bulk(t.lead)
    expect(leadRows.submissions).toHaveLength(before.submissions?.length ?? 0)
    expect(leadRows.annotations?.length).toBe(
      (before.annotations?.length ?? 0) + s.annotations.length - 1,
    )

    expect(await ok('team', 'sync', '--db', t.lead)).toMatchObject({ pushed: 1 })
    expect(await ok('team', 'sync', '--db', rev)).toMatchObject({ pulled: 1 })
    expect(await serverCount(t.db, 'annotations')).toBe(leadRows.annotations?.length)
    expect(bulk(rev)).toEqual(bulk(t.lead))
  }, 90_000)

  it('pushes a ProtoQA answer list that adds answers to a question an earlier import brought', async () => {
    const dir = tempDir()
    const t = await team(dir, [])
    const answers = join(root, 'tests/fixtures/protoqa/answers.csv')
    await ok('protoqa', 'import', answers, '--db', t.lead)
    await ok('team', 'sync', '--db', t.lead)
    expect(await serverCount(t.db, 'source_files')).toBe(2)
    const more = join(dir, 'more.csv')
    writeFileSync(
      more,
      'question_id,question,answer,worker_id\nt2q1,Name something you find at a beach.,Shell,W9\n',
    )
    await ok('protoqa', 'import', more, '--db', t.lead)
    expect(await ok('team', 'sync', '--db', t.lead)).toMatchObject({ pushed: 1 })
    expect(await serverCount(t.db, 'change_sets')).toBe(3)
    const served = await postgres.server.admin$(
      `SELECT count FROM winnow.protoqa_answers WHERE text = 'shell'`,
      t.db,
    )
    expect(served.rows).toEqual([{ count: '1' }])
  }, 60_000)
})
