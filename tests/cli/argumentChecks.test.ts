import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { day, importSubmissions, newProject } from '../ratings/helpers'

/** Arguments that used to be taken, or refused with the wrong reason. */
describe('argument checks say what is wrong', () => {
  const tempDir = useTempDir()

  function project(): string {
    const dir = tempDir()
    const db = newProject(dir)
    importSubmissions(db, [{ worker: 'A1', at: day('2019-09-01'), fileRating: 2 }])
    db.close()
    return join(dir, 'p.winnow')
  }

  it('an audit that does not exist is named as missing, not its item', async () => {
    const db = project()
    const judged = await cli('audit', 'judge', '999', '--db', db, '--item', '1', '--verdict', 'yes')
    expect(judged.code).toBe(1)
    expect(judged.stderr).toBe('winnow audit: No audit 999.\n')
    const drawn = await cli('audit', 'draw', '--db', db, '--n', '1', '--seed', '1')
    expect(drawn.code).toBe(0)
    // The project's first audit is audit 1: there the item is what is missing.
    const missing = await cli(
      'audit',
      'judge',
      '1',
      '--db',
      db,
      '--item',
      '999999',
      '--verdict',
      'no',
    )
    expect(missing.stderr).toBe('winnow audit: Annotation 999999 is not in audit 1.\n')
  })

  it('--as-of before 1970 says why it is refused', async () => {
    const db = project()
    for (const moment of ['1900-01-01', '1969-12-31T23:59:59Z']) {
      const out = await cli('stats', '--db', db, '--as-of', moment)
      expect(out.code).not.toBe(0)
      expect(out.stderr).toContain(
        `--as-of: '${moment}' is before 1970, before any project began: nothing was recorded then.`,
      )
    }
    expect((await cli('stats', '--db', db, '--as-of', 'soon')).stderr).toContain(
      "--as-of: 'soon' is not a moment",
    )
    expect((await cli('stats', '--db', db, '--as-of', '1970-01-01')).code).toBe(0)
  })

  it('an empty --tiers or --format is refused, not read as every tier or format', async () => {
    const db = project()
    const out = join(tempDir(), 'release')
    const tiers = await cli('export', '--db', db, '--out', out, '--tiers', '')
    expect(tiers.code).not.toBe(0)
    expect(tiers.stderr).toContain(
      '--tiers names nothing; name the tiers (3,2), or leave it out for all of them',
    )
    const formats = await cli('export', '--db', db, '--out', out, '--format', ' , ')
    expect(formats.stderr).toContain('--format names nothing; name the formats (csv,jsonl,parquet)')
    expect(existsSync(out)).toBe(false)
  })

  it('--max-upload-mb is bounded', async () => {
    const dir = tempDir()
    // A project in a folder that does not exist: were the option taken, opening it would fail.
    const out = await cli(
      'serve',
      '--db',
      join(dir, 'missing', 'p.winnow'),
      '--max-upload-mb',
      '1e9',
    )
    expect(out.code).not.toBe(0)
    expect(out.stderr).toMatch(
      /^winnow serve: --max-upload-mb must be from 1 to 10000, got 1000000000\n/,
    )
  })
})
