import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { version } from '../../package.json'
import { openProject } from '../../src/main/db/connection'
import { StoryReader } from '../../src/main/release/stories'
import { useTempDir } from '../helpers/tmp'
import { exportNow, releaseProject, releaseSubmissions } from './helpers'

const tempDir = useTempDir()

/**
 * The SHA-256 of a data file, Parquet's `created_by` (which names Winnow's version) taken out, so
 * the figures below stay true from one version to the next.
 */
function contentHash(path: string): string {
  const bytes = readFileSync(path)
  const createdBy = Buffer.from(`Winnow ${version}`)
  const at = bytes.indexOf(createdBy)
  const kept =
    at < 0 ? bytes : Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + createdBy.length)])
  return createHash('sha256').update(kept).digest('hex')
}

describe('release files over time', () => {
  // Written by the export that held every story in memory: an export reading the stories as its
  // rows reach them writes the same bytes.
  it('writes the same bytes as the release written before the stories were read row by row', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(400, 29))
    const out = join(dir, 'r')
    const result = exportNow(db, {
      out,
      formats: ['csv', 'jsonl', 'parquet'],
      split: { test: 7, dev: 5, tier: 3 },
    })
    const hashes = Object.fromEntries(
      result.files.map((f) => [f.path, contentHash(join(out, f.path))]),
    )
    expect(hashes).toEqual({
      'data/tier-1-train.csv': 'e204f12cfdffb8f5ed3cdf57188efbd06a8b55b1bfc78d21667b51c3af36d5a1',
      'data/tier-1-train.jsonl': '02e3ccb5fb8bef990a6b2b5533f750923c5d82ab5b0b0914a948bc53a571af40',
      'data/tier-1-train.parquet':
        '93592cc0f8a72852c0b4477123c014cd39acaf075bbe0a875eecdc4d88ac7db1',
      'data/tier-2-train.csv': '680198c41c27cfda2d223c8ef2d9efc0fd33516c469435a5beb37d7ca232e249',
      'data/tier-2-train.jsonl': '971eb010b69aeb12ffab27eff91f50451023e323b1633372be75b68c1612e91c',
      'data/tier-2-train.parquet':
        'a3d153e0c6a93b30372c85a976c57f9f93241bee5833c49bf50f2933b77f6096',
      'data/tier-3-dev.csv': '2c0e43b37b7f8f6b9043c08db62ef42b7e16e485b2435b422efd6d822b7db597',
      'data/tier-3-dev.jsonl': 'b1e251df6c304dfedab190b0910ddbd0685d30f7590d7382a213a0de05b06742',
      'data/tier-3-dev.parquet': '12b161ea5daa3181789dc12ddf101850caa908822f318558483d82e67fb7867a',
      'data/tier-3-test.csv': '3a44127fc5c4e437a6c720d0890638b7477edd4280d6c93fc92f9bf0af442d9b',
      'data/tier-3-test.jsonl': '06a9c68395078c144a04a6874f0e5f8ef1df43d4f3b44dc208ec7c0bca5c7280',
      'data/tier-3-test.parquet':
        '264b310827ed56579b689764037eaa91517ae74b473a6f1d409c59e26889d4ee',
      'data/tier-3-train.csv': '92c26b89c9b2ddf526f958434b74382b3f0eca71d55703fd3b84746b3ea0c3cc',
      'data/tier-3-train.jsonl': '76bd8d8d6961a90b70c27defd0150f9efe0b22885e91a29bb4cd866ef786befc',
      'data/tier-3-train.parquet':
        '4f022894d1d6fbc1d5aab416c5ba367e5b9f9d9c15186f9b0fce2722f6d39eeb',
    })
  })

  it('reads each story and its sentences again once more stories than it keeps came after it', () => {
    const dir = tempDir()
    const { db: path } = releaseProject(dir, releaseSubmissions(300, 4))
    const db = openProject(path)
    try {
      const stories = db
        .prepare('SELECT id, external_id AS externalId, text FROM stories ORDER BY id')
        .all() as { id: number; externalId: string; text: string }[]
      const sentences = db.prepare('SELECT story_id AS story, idx, text FROM sentences').all() as {
        story: number
        idx: number
        text: string
      }[]
      const expected = new Map(
        stories.map((s) => [
          s.id,
          {
            externalId: s.externalId,
            text: s.text,
            sentences: sentences
              .filter((x) => x.story === s.id)
              .sort((a, b) => a.idx - b.idx)
              .map((x) => x.text),
          },
        ]),
      )
      expect(stories.length).toBeGreaterThan(4)
      const reader = new StoryReader(db, 2)
      const ids = stories.map((s) => s.id)
      // Forwards, backwards and repeated: kept stories, evicted ones and ones never read.
      for (const id of [...ids, ...[...ids].reverse(), ids[0] ?? 0, ids[0] ?? 0, ids[1] ?? 0]) {
        expect(reader.story(id)).toEqual(expected.get(id))
      }
      expect(reader.story(-1)).toBeUndefined()
    } finally {
      db.close()
    }
  })
})
