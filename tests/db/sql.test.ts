import { describe, expect, it } from 'vitest'
import { sql } from '../../src/main/db/sql'

describe('sql tagged template', () => {
  it('binds every value, never splices it', () => {
    const name = "x'; DROP TABLE workers; --"
    const q = sql`SELECT * FROM workers WHERE external_id = ${name} AND id > ${3}`
    expect(q.text).toBe('SELECT * FROM workers WHERE external_id = ? AND id > ?')
    expect(q.values).toEqual([name, 3])
  })

  it('nests fragments and keeps their values in order', () => {
    const where = sql.join([sql`a = ${1}`, sql`b IN ${sql.list([2, 3])}`], ' AND ')
    const q = sql`SELECT 1 WHERE ${where} LIMIT ${10}`
    expect(q.text).toBe('SELECT 1 WHERE a = ? AND b IN (?, ?) LIMIT ?')
    expect(q.values).toEqual([1, 2, 3, 10])
  })

  it('writes booleans as 0/1 and refuses an empty list', () => {
    expect(sql`${true} ${false}`.values).toEqual([1, 0])
    expect(() => sql.list([])).toThrow()
  })
})
