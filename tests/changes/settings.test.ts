import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { QUIET } from '../../src/main/jobs/writeHooks'
import { rate } from '../../src/main/tasks/writeTasks'
import { rememberFieldMap, projectFieldMap } from '../../src/main/mturk/fieldMapFile'
import { readEndpoint, writeEndpoint } from '../../src/main/mturk/settings'
import { history } from '../../src/main/ratings/history'
import { ratingScale, setRatingScale } from '../../src/main/ratings/scale'
import { revertChangeSet, undoState } from '../../src/main/ratings/revert'
import { releaseCard, saveReleaseSettings, tierMap } from '../../src/main/release/settings'
import { saveTriageSettings, triageSettings } from '../../src/main/triage/settings'
import { DEFAULT_RATING_SCALE } from '../../src/shared/contract/ratings'
import { DEFAULT_TIER_MAP } from '../../src/shared/contract/release'
import { useTempDir } from '../helpers/tmp'
import { projectWith } from '../triage/fixture'
import { changeSetsAfter, lastChangeSetId } from './record'

const card = {
  name: 'GLUCOSE tiers',
  description: 'Causal explanations in quality tiers.',
  license: 'cc-by-4.0',
  url: 'https://example.org/glucose',
  creator: 'The GLUCOSE team',
}

/** The last change set: one setting entry, by `author`, with its key and new value. */
function lastSetting(db: Db, before: number) {
  const sets = changeSetsAfter(db, before)
  expect(sets).toHaveLength(1)
  const [set] = sets
  expect(set).toMatchObject({ kind: 'setting', author: 'lee' })
  expect(set?.at).toBeGreaterThan(0)
  expect(set?.entries).toHaveLength(1)
  return { id: set?.id ?? 0, description: set?.description, entry: set?.entries[0] }
}

describe('project settings are change sets', () => {
  const tempDir = useTempDir()

  it('the tier map and the dataset card: each change a change set, reverted back to what it was', () => {
    const path = join(tempDir(), 'p.winnow')
    const db = openProject(path, { create: true })
    let before = lastChangeSetId(db)
    const swapped = [
      { rating: 3, tier: 1 },
      { rating: 1, tier: 3 },
    ]
    saveReleaseSettings(db, path, { tierMap: swapped }, 'lee')
    const map = lastSetting(db, before)
    expect(map.description).toBe('Tier map: 3 → tier 1, 1 → tier 3')
    expect(map.entry).toEqual({ subject: 'setting', key: 'release.tierMap', value: swapped })
    expect(tierMap(db)).toEqual([
      { rating: 1, tier: 3 },
      { rating: 3, tier: 1 },
    ])
    // Saving what the project has records nothing.
    before = lastChangeSetId(db)
    saveReleaseSettings(db, path, { tierMap: swapped }, 'lee')
    expect(changeSetsAfter(db, before)).toEqual([])

    saveReleaseSettings(db, path, { card }, 'lee')
    const saved = lastSetting(db, before)
    expect(saved.description).toBe('Dataset card: GLUCOSE tiers, cc-by-4.0')
    expect(history(db)[0]).toMatchObject({ kind: 'setting', revertable: true })

    revertChangeSet(db, map.id, { author: 'lee' })
    expect(tierMap(db)).toEqual([...DEFAULT_TIER_MAP])
    expect(
      db.prepare("SELECT count(*) FROM settings WHERE key = 'release.tierMap'").pluck().get(),
    ).toBe(0)
    expect(releaseCard(db, path)).toEqual(card)
    // Settings are reverted from History; Ctrl+Z is for marks, verdicts and ratings.
    expect(undoState(db).undo).toBeNull()
    db.close()
  })

  it('the rating scale: a change set, and reverting it refuses to drop a rating now in use', () => {
    const db = projectWith(tempDir(), [{ worker: 'W', at: '2019-09-05', dims: [1] }])
    const before = lastChangeSetId(db)
    const withFive = [...DEFAULT_RATING_SCALE, { value: 5, label: 'Gold', color: '#123456' }]
    setRatingScale(db, withFive, 'lee')
    const scale = lastSetting(db, before)
    expect(scale.entry).toMatchObject({ subject: 'setting', key: 'ratings.scale' })
    expect(scale.description).toMatch(/^Rating scale: 5 Gold, 3 Top, 2 Proficient/)
    const annotationId = db.prepare('SELECT min(id) FROM annotations').pluck().get() as number
    rate(
      db,
      {
        target: { kind: 'selection', annotationIds: [annotationId], submissionIds: [] },
        value: 5,
        author: 'lee',
      },
      QUIET,
    )
    expect(() => revertChangeSet(db, scale.id, { author: 'lee' })).toThrow(
      /Ratings 5 are still in use/,
    )
    expect(ratingScale(db).map((l) => l.value)).toContain(5)
    db.close()
  })

  it('the flag thresholds, the MTurk endpoint and field mapping are change sets too', () => {
    const db = projectWith(tempDir(), [{ worker: 'W', at: '2019-09-05', dims: [1] }])
    let before = lastChangeSetId(db)
    saveTriageSettings(db, { ...triageSettings(db), rushSeconds: 30, queueShare: 0.07 }, 'lee')
    const thresholds = lastSetting(db, before)
    expect(thresholds.description).toBe(
      'Flag thresholds: queue share 7 %, rushing under 30 s or 50 % minimal, new for 7 days',
    )
    before = lastChangeSetId(db)
    writeEndpoint(db, { endpoint: 'production' }, 'lee')
    expect(lastSetting(db, before).entry).toEqual({
      subject: 'setting',
      key: 'mturk.endpoint',
      value: { endpoint: 'production', customUrl: null },
    })
    before = lastChangeSetId(db)
    rememberFieldMap(db, { name: 'form.json', map: { cause: 'story' } }, 'lee')
    const mapping = lastSetting(db, before)
    expect(mapping.description).toBe('MTurk field mapping: form.json')
    revertChangeSet(db, mapping.id, { author: 'lee' })
    expect(projectFieldMap(db)).toBeNull()
    revertChangeSet(db, thresholds.id, { author: 'lee' })
    expect(triageSettings(db).rushSeconds).toBe(120)
    expect(readEndpoint(db).endpoint).toBe('production')
    db.close()
  })
})
