import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CONNECTORS, DIMENSIONS, dimensionInfo } from '../../../src/shared/glucose/dimensions'
import { AnnotationFlag, describeFlags, SubmissionFlag } from '../../../src/shared/glucose/flags'
import {
  annotationFlags,
  flagsByGrammar,
  normalizeSpaces,
  parseNL,
  parseStructured,
  slotAsNL,
} from '../../../src/shared/glucose/grammar'
import { joinReferences, splitReferences } from '../../../src/shared/glucose/references'

const TABATHA_NL =
  'Tabatha is in her front yard >Enables> Tabatha finds a pregnant cat lying in the leaves'
const TABATHA_STRUCTURED =
  '{Tabatha}_[subject] {is}_[verb] {in}_[preposition] {her front yard}_[object] >Enables> ' +
  '{Tabatha}_[subject] {finds}_[verb] {a pregnant cat lying}_[object1] {in}_[preposition2] {the leaves}_[object2]'

describe('dimensions', () => {
  it('describes all ten, with X on the right for 1–5 and on the left for 6–10', () => {
    expect(DIMENSIONS.map((d) => d.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(DIMENSIONS.map((d) => d.selectedSide)).toEqual([
      ...Array<string>(5).fill('right'),
      ...Array<string>(5).fill('left'),
    ])
    expect(DIMENSIONS.map((d) => d.connector)).toEqual([
      'Causes/Enables',
      'Motivates',
      'Enables',
      'Enables',
      'Enables',
      'Causes/Enables',
      'Causes',
      'Results in',
      'Results in',
      'Results in',
    ])
    expect(new Set(DIMENSIONS.map((d) => d.name)).size).toBe(10)
    expect(dimensionInfo(7).name).toBe('Emotion')
    expect(() => dimensionInfo(11)).toThrow(RangeError)
  })
})

describe('parseNL', () => {
  it('splits at the connector, taking one space on each side with it', () => {
    expect(parseNL(TABATHA_NL)).toEqual({
      left: 'Tabatha is in her front yard',
      connector: 'Enables',
      right: 'Tabatha finds a pregnant cat lying in the leaves',
      extraConnectors: 0,
    })
  })

  it('keeps the halves verbatim, double spaces included', () => {
    const p = parseNL('Sam is above a stream  >Enables>  Sam stands on  a bridge ')
    expect(p?.left).toBe('Sam is above a stream ')
    expect(p?.right).toBe(' Sam stands on  a bridge ')
  })

  it('splits a two-connector cell at the first connector and counts the other', () => {
    const p = parseNL(
      'Someone_A feel(s) hunger >Motivates> Someone_A is hungry >Motivates> Someone_A eats',
    )
    expect(p).toMatchObject({
      left: 'Someone_A feel(s) hunger',
      connector: 'Motivates',
      right: 'Someone_A is hungry >Motivates> Someone_A eats',
      extraConnectors: 1,
    })
  })

  it('prefers a GLUCOSE connector over a stray ">" in the text, and reports unknown ones', () => {
    expect(parseNL('a > b >Causes> c')).toMatchObject({
      left: 'a > b',
      connector: 'Causes',
      right: 'c',
    })
    expect(parseNL('a >Leads to> b')).toMatchObject({ connector: 'Leads to', extraConnectors: 0 })
  })

  it('gives null without a connector or with an empty half', () => {
    expect(parseNL('no connector here')).toBeNull()
    expect(parseNL(' >Causes> something')).toBeNull()
    expect(parseNL('escaped')).toBeNull()
    expect(parseNL('')).toBeNull()
  })
})

describe('parseStructured', () => {
  it('reads slots and their tags around the connector', () => {
    const p = parseStructured(TABATHA_STRUCTURED)
    expect(p?.connector).toBe('Enables')
    expect(p?.left.map((s) => [s.text, s.tag])).toEqual([
      ['Tabatha', 'subject'],
      ['is', 'verb'],
      ['in', 'preposition'],
      ['her front yard', 'object'],
    ])
    expect(p?.right.map((s) => s.tag)).toEqual([
      'subject',
      'verb',
      'object1',
      'preposition2',
      'object2',
    ])
    expect(normalizeSpaces(p?.asNL ?? '')).toBe(TABATHA_NL)
  })

  it('splits out attribute clauses and keeps trailing spaces in slot text', () => {
    const p = parseStructured(
      '{Someone_A}_[subject] {stands}_[verb] {on }_[preposition1] {Somewhere_A ||that is a bridge||}_[object1] >Causes/Enables> {Someone_A}_[subject] {feel(s)}_[verb] {Something_A ||(a pregnant animal)||}_[object]',
    )
    expect(p?.left[2]).toEqual({ raw: 'on ', text: 'on ', tag: 'preposition1' })
    expect(p?.left[3]).toEqual({
      raw: 'Somewhere_A ||that is a bridge||',
      text: 'Somewhere_A ',
      tag: 'object1',
      clause: 'that is a bridge',
    })
    expect(p?.right[2]?.clause).toBe('(a pregnant animal)')
    expect(p?.asNL).toBe(
      'Someone_A stands on  Somewhere_A (that is a bridge) >Causes/Enables> Someone_A feel(s) Something_A ((a pregnant animal))',
    )
  })

  it('accepts a half without a verb slot and skipped numbering', () => {
    const p = parseStructured(
      '{they}_[subject] >Causes> {they}_[subject] {in}_[preposition2] {love}_[object2]',
    )
    expect(p?.left).toHaveLength(1)
    expect(p?.right.map((s) => s.tag)).toEqual(['subject', 'preposition2', 'object2'])
  })

  it('gives null for text outside slots, a missing connector or an empty half', () => {
    expect(parseStructured('{a}_[subject] loose text >Causes> {b}_[subject]')).toBeNull()
    expect(parseStructured('{a}_[subject] {b}_[verb]')).toBeNull()
    expect(parseStructured('>Causes> {b}_[subject]')).toBeNull()
    expect(parseStructured('{a}_[Subject] >Causes> {b}_[subject]')).toBeNull()
    expect(parseStructured('{a {b}_[subject] >Causes> {b}_[subject]')).toBeNull()
    expect(parseStructured('escaped')).toBeNull()
  })

  it('turns clauses into parentheses for NL', () => {
    expect(slotAsNL('Somewhere_A ||that is a school||')).toBe('Somewhere_A (that is a school)')
    expect(slotAsNL('plain')).toBe('plain')
  })
})

describe('annotationFlags', () => {
  const clean = {
    specificNL: TABATHA_NL,
    specificStructured: TABATHA_STRUCTURED,
    generalNL: 'Someone_A is at Somewhere_A (that is a yard) >Enables> Someone_A finds Something_A',
    generalStructured:
      '{Someone_A}_[subject] {is}_[verb] {at}_[preposition] {Somewhere_A ||that is a yard||}_[object] >Enables> {Someone_A}_[subject] {finds}_[verb] {Something_A}_[object1]',
  }

  it('finds nothing wrong with a clean dimension-3 answer, double spaces and case aside', () => {
    expect(annotationFlags(3, clean)).toBe(0)
    expect(
      annotationFlags(3, {
        ...clean,
        specificNL: clean.specificNL.replace('is in', 'is  in'),
        generalNL: clean.generalNL.replace('Someone_A is', 'someone_A is'),
      }),
    ).toBe(0)
  })

  it('flags a connector that is not the dimension’s', () => {
    expect(annotationFlags(2, clean)).toBe(AnnotationFlag.ConnectorMismatch)
  })

  it('flags cells that do not parse and NL that says something else than Structured', () => {
    expect(annotationFlags(3, { ...clean, specificNL: 'no connector' })).toBe(
      AnnotationFlag.NlUnparsed,
    )
    expect(annotationFlags(3, { ...clean, specificStructured: 'Tabatha >Enables>' })).toBe(
      AnnotationFlag.StructuredUnparsed,
    )
    expect(
      annotationFlags(3, { ...clean, specificNL: clean.specificNL.replace('yard', 'garden') }),
    ).toBe(AnnotationFlag.NlStructuredDisagree)
  })

  it('tells a lost underscore in a clause apart from a real disagreement', () => {
    const flags = annotationFlags(3, {
      ...clean,
      generalNL:
        "Someone_A is at Somewhere_A (that is Something_A's location) >Enables> Someone_A finds Something_A",
      generalStructured:
        "{Someone_A}_[subject] {is}_[verb] {at}_[preposition] {Somewhere_A ||that is Something A's location||}_[object] >Enables> {Someone_A}_[subject] {finds}_[verb] {Something_A}_[object1]",
    })
    expect(flags).toBe(AnnotationFlag.UnderscoreLost)
  })

  it('flags extra and unknown connectors', () => {
    const two =
      'Someone_A feel(s) hunger >Motivates> Someone_A is hungry >Motivates> Someone_A eats'
    expect(
      annotationFlags(2, {
        specificNL: two,
        specificStructured: null,
        generalNL: two,
        generalStructured: null,
      }),
    ).toBe(AnnotationFlag.ExtraConnector)
    const odd = 'a >Leads to> b'
    expect(
      annotationFlags(1, {
        specificNL: odd,
        specificStructured: null,
        generalNL: odd,
        generalStructured: null,
      }),
    ).toBe(AnnotationFlag.UnknownConnector)
  })

  it('flags partly escaped dimensions and hidden answers', () => {
    expect(
      annotationFlags(3, { ...clean, generalNL: 'escaped', generalStructured: 'escaped' }),
    ).toBe(AnnotationFlag.PartlyEscaped)
    expect(
      annotationFlags(3, {
        specificNL: 'answered',
        specificStructured: null,
        generalNL: 'answered',
        generalStructured: null,
      }),
    ).toBe(AnnotationFlag.Hidden)
  })

  it('checks test-set references one by one', () => {
    const ref = 'A >Causes/Enables> B'
    const three = joinReferences([ref, ref, ref])
    const cells = {
      specificNL: three,
      specificStructured: null,
      generalNL: three,
      generalStructured: null,
    }
    expect(annotationFlags(1, cells, { references: true })).toBe(0)
    const eight = `${ref}********${ref}****${ref}`
    expect(annotationFlags(1, { ...cells, generalNL: eight }, { references: true })).toBe(
      AnnotationFlag.ReferenceCount | AnnotationFlag.EmptyReference,
    )
    expect(
      annotationFlags(
        1,
        { ...cells, specificNL: joinReferences([ref, 'oops', ref]) },
        { references: true },
      ),
    ).toBe(AnnotationFlag.NlUnparsed)
  })

  it('takes the shortcut for plain cells only where the grammar finds nothing either', () => {
    // Slot texts and NL edits from the characters the shortcut must get right: braces, bars,
    // `>`, spaces (leading, doubled, other kinds), parentheses and a lost underscore.
    const text = fc
      .array(
        fc.oneof(
          { arbitrary: fc.constantFrom('a', 'Someone_A', 'is', ' ', '||'), weight: 12 },
          {
            arbitrary: fc.constantFrom('Someone A', '  ', '\u00a0', '|', '(', ')', '>', '{', '}'),
            weight: 1,
          },
        ),
        { maxLength: 6 },
      )
      .map((p) => p.join(''))
    const tag = fc.oneof(
      { arbitrary: fc.constantFrom('subject', 'object1'), weight: 12 },
      { arbitrary: fc.constantFrom('Verb', ''), weight: 1 },
    )
    const slot = fc.tuple(text, tag).map(([t, g]) => `{${t}}_[${g}]`)
    const half = fc.array(slot, { minLength: 1, maxLength: 3 }).map((s) => s.join(' '))
    const edit = fc.oneof(
      { arbitrary: fc.constant(''), weight: 3 },
      { arbitrary: fc.constantFrom(' ', '  ', '(', ')', 'a', '_', '|'), weight: 1 },
    )
    const pair = (connector: string) =>
      fc.tuple(half, half, edit, fc.nat({ max: 60 })).map(([left, right, change, at]) => {
        const structured = `${left} >${connector}> ${right}`
        const plain = parseStructured(structured)?.asNL ?? structured
        const cut = Math.min(at, plain.length)
        return { nl: plain.slice(0, cut) + change + plain.slice(cut), structured }
      })
    const annotation = fc.integer({ min: 1, max: 10 }).chain((d) => {
      const connector = fc.oneof(
        { arbitrary: fc.constant(dimensionInfo(d).connector), weight: 4 },
        { arbitrary: fc.constantFrom(...CONNECTORS, 'Leads to'), weight: 1 },
      )
      return fc.tuple(fc.constant(d), connector.chain(pair), connector.chain(pair))
    })
    let clean = 0
    fc.assert(
      fc.property(annotation, ([d, specific, general]) => {
        const cells = {
          specificNL: specific.nl,
          specificStructured: specific.structured,
          generalNL: general.nl,
          generalStructured: general.structured,
        }
        const flags = flagsByGrammar(d, cells)
        if (flags === 0) clean++
        expect(annotationFlags(d, cells)).toBe(flags)
      }),
      { numRuns: 20000 },
    )
    // Clean and flagged cells both come up often enough for the comparison to mean something.
    expect(clean).toBeGreaterThan(1000)
    expect(clean).toBeLessThan(19000)
  })

  it('never throws, whatever the cells hold', () => {
    const piece = fc.constantFrom(
      '{',
      '}',
      '_[',
      ']',
      '>',
      '>Causes>',
      '||',
      '(',
      ' ',
      'a',
      'Someone_A',
      '****',
      'escaped',
      'answered',
      '',
    )
    const cell = fc.array(piece, { maxLength: 20 }).map((p) => p.join(''))
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        cell,
        cell,
        cell,
        cell,
        fc.boolean(),
        (d, a, b, c, e, refs) => {
          const flags = annotationFlags(
            d,
            { specificNL: a, specificStructured: b, generalNL: c, generalStructured: e },
            { references: refs },
          )
          expect(Number.isInteger(flags)).toBe(true)
          parseNL(a)
          parseStructured(b)
        },
      ),
      { numRuns: 3000 },
    )
  })
})

describe('flags', () => {
  it('keeps annotation and submission bits apart and labels them', () => {
    const a = Object.values(AnnotationFlag).reduce((m, b) => m | b, 0)
    const s = Object.values(SubmissionFlag).reduce((m, b) => m | b, 0)
    expect(a & s).toBe(0)
    expect(describeFlags(AnnotationFlag.Hidden | SubmissionFlag.DuplicateKey)).toEqual([
      { name: 'Hidden', label: 'answer hidden' },
      { name: 'DuplicateKey', label: 'duplicate key in file' },
    ])
  })
})

describe('references', () => {
  it('keeps empty items, so eight asterisks give four parts', () => {
    expect(splitReferences('a********b****c')).toEqual(['a', '', 'b', 'c'])
    expect(splitReferences('only')).toEqual(['only'])
    expect(joinReferences(splitReferences('a********b****c'))).toBe('a********b****c')
  })
})

describe('connectors', () => {
  it('lists exactly the five connectors GLUCOSE cells use', () => {
    expect([...CONNECTORS].sort()).toEqual([
      'Causes',
      'Causes/Enables',
      'Enables',
      'Motivates',
      'Results in',
    ])
  })
})
