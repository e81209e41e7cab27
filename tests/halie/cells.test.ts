import { describe, expect, it } from 'vitest'
import {
  CellError,
  parseBoolean,
  parseNumber,
  parseReprList,
  reprList,
  withoutSentinel,
} from '../../src/shared/halie/cells'
import { LIST_CELLS } from '../helpers/halie'

describe('HALIE list cells (Python repr)', () => {
  it('reads an empty list, with or without spaces', () => {
    expect(parseReprList('[]')).toEqual([])
    expect(parseReprList(' [ ] ')).toEqual([])
  })

  it('reads single-quoted elements', () => {
    expect(parseReprList("['exact', 'keyword']")).toEqual(['exact', 'keyword'])
    expect(parseReprList("['close;question']")).toEqual(['close;question'])
  })

  it('reads double-quoted elements holding single quotes, and single-quoted ones holding double quotes', () => {
    expect(parseReprList(`["Duck's feet", 'plain']`)).toEqual(["Duck's feet", 'plain'])
    expect(parseReprList(`['In which war was "The Star Spangled Banner" written?']`)).toEqual([
      'In which war was "The Star Spangled Banner" written?',
    ])
  })

  it('reads backslash escapes', () => {
    expect(parseReprList("['back\\\\slash', 'line\\nbreak', 'it\\'s', 'tab\\there']")).toEqual([
      'back\\slash',
      'line\nbreak',
      "it's",
      'tab\there',
    ])
    expect(parseReprList("['\\xe9t\\u00e9 \\U0001F600']")).toEqual(['été 😀'])
    expect(parseReprList('["say \\"hi\\""]')).toEqual(['say "hi"'])
  })

  it('writes lists back as Python does, and reads them again', () => {
    for (const cell of LIST_CELLS) expect(reprList(parseReprList(cell))).toBe(cell)
    const items = ["it's", 'say "hi"', 'both \' and "', 'a\\b', 'new\nline']
    expect(parseReprList(reprList(items))).toEqual(items)
  })

  it('refuses what is not a list of strings, saying where', () => {
    const fail = (cell: string): CellError => {
      try {
        parseReprList(cell)
      } catch (e) {
        if (e instanceof CellError) return e
      }
      throw new Error(`accepted ${cell}`)
    }
    expect(fail('exact').message).toMatch(/expected a list/)
    expect(fail("['open").message).toMatch(/not closed/)
    expect(fail("['a' 'b']").offset).toBe(5)
    expect(fail('[1, 2]').message).toMatch(/quoted string/)
    expect(fail("['a'] x").message).toMatch(/after the list/)
    expect(fail("['\\x4']").message).toMatch(/bad \\x escape/)
  })
})

describe('HALIE scalar cells', () => {
  it('reads True/False and empty', () => {
    expect(parseBoolean('True')).toBe(true)
    expect(parseBoolean('False')).toBe(false)
    expect(parseBoolean('')).toBeNull()
    expect(() => parseBoolean('true')).toThrow(CellError)
  })

  it('reads numbers written as strings, empty as missing, and -1 as not asked', () => {
    expect(parseNumber('1.0')).toBe(1)
    expect(parseNumber('0.6666666666666666')).toBeCloseTo(2 / 3, 15)
    expect(parseNumber('')).toBeNull()
    expect(parseNumber('-1')).toBe(-1)
    expect(withoutSentinel(parseNumber('-1'))).toBeNull()
    expect(withoutSentinel(parseNumber('3'))).toBe(3)
    expect(() => parseNumber('1,5')).toThrow(CellError)
    expect(() => parseNumber('0x10')).toThrow(CellError)
  })
})
