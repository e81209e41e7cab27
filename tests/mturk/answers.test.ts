import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  flattenTaskAnswers,
  htmlUnescape,
  isHtmlEscapedQuestion,
  parseAnswer,
  scanPlainAnswers,
  xmlDecode,
} from '../../src/main/mturk/answers'
import { crowdFormAnswerXml, htmlFormAnswerXml, questionFormAnswersXml } from '../../standin/index'

const fieldsOf = (xml: string | null, htmlEscaped = true): Record<string, string> => {
  const parsed = parseAnswer(xml, { htmlEscaped })
  if (!parsed.ok) throw new Error(parsed.error)
  return { ...parsed.fields }
}

describe('parseAnswer', () => {
  it('reads an HTMLQuestion post, unescaping HTML once after XML decoding', () => {
    const story = `Tabatha's cat <3 "Mo" & café — ok`
    const cell = 'Sam goes for a walk >Causes/Enables> Sam sees a cat'
    const xml = htmlFormAnswerXml({
      story,
      '1_specificNL': cell,
      literal: '&gt; is how you write >',
      assignmentId: 'ASSIGNMENT_ID_NOT_AVAILABLE',
      doNotRedirect: 'true',
    })
    expect(xml).toContain('&amp;gt;Causes/Enables&amp;gt;') // escaped twice on the wire
    expect(xml).toContain('caf&#233;')
    expect(fieldsOf(xml)).toEqual({
      story,
      '1_specificNL': cell,
      literal: '&gt; is how you write >',
    })
  })

  it('leaves QuestionForm FreeText alone beyond XML decoding', () => {
    const xml = questionFormAnswersXml([{ id: 'q', freeText: 'a &amp; b' }])
    expect(fieldsOf(xml, false)).toEqual({ q: 'a &amp; b' })
    expect(isHtmlEscapedQuestion('<QuestionForm xmlns="x"><Question/></QuestionForm>')).toBe(false)
    expect(isHtmlEscapedQuestion('<HTMLQuestion xmlns="x"/>')).toBe(true)
  })

  it('reads a crowd-form taskAnswers array, flattening widget values', () => {
    const xml = crowdFormAnswerXml([
      {
        story: 'It was "fine" & good',
        sentiment: { label: 'Positive' },
        happy: { on: true },
        sad: { on: false },
        box: { left: 3, top: 4 },
        tags: ['a', 'b'],
        nothing: null,
      },
    ])
    expect(fieldsOf(xml)).toEqual({
      story: 'It was "fine" & good',
      sentiment: 'Positive',
      happy: 'true',
      sad: 'false',
      'box.left': '3',
      'box.top': '4',
      tags: 'a|b',
      nothing: '',
    })
  })

  it('reads a single answer (an object, not an array, to naive converters)', () => {
    expect(fieldsOf(questionFormAnswersXml([{ id: 'only', freeText: 'one' }]))).toEqual({
      only: 'one',
    })
  })

  it('treats an empty Answer string or document as no fields', () => {
    expect(fieldsOf('')).toEqual({})
    expect(fieldsOf(null)).toEqual({})
    expect(fieldsOf(questionFormAnswersXml([]))).toEqual({})
    expect(fieldsOf(questionFormAnswersXml([{ id: 'blank', freeText: '' }]))).toEqual({ blank: '' })
  })

  it('reads selections, other text and uploads, and prefixed namespaces', () => {
    const xml = questionFormAnswersXml([
      { id: 'colors', selections: ['red', 'blue'], other: 'teal' },
      { id: 'photo', upload: { key: 'uploads/k1', bytes: 2048 } },
    ])
    expect(fieldsOf(xml, false)).toEqual({
      colors: 'red|blue',
      'colors.other': 'teal',
      photo: 'uploads/k1',
      'photo.bytes': '2048',
    })
    const prefixed =
      '<q:QuestionFormAnswers xmlns:q="urn:x"><q:Answer><q:QuestionIdentifier>a</q:QuestionIdentifier>' +
      '<q:FreeText>b</q:FreeText></q:Answer></q:QuestionFormAnswers>'
    expect(fieldsOf(prefixed)).toEqual({ a: 'b' })
    const cdata =
      '<QuestionFormAnswers><Answer><QuestionIdentifier>c</QuestionIdentifier>' +
      '<FreeText>x &amp; <![CDATA[<b>&amp;</b>]]></FreeText></Answer></QuestionFormAnswers>'
    expect(fieldsOf(cdata, false)).toEqual({ c: 'x & <b>&amp;</b>' })
  })

  it('decodes thousands of entities (beyond the XML library’s expansion limit)', () => {
    const long = Array.from({ length: 3000 }, () => "it's").join(' ')
    expect(fieldsOf(htmlFormAnswerXml({ long })).long).toBe(long)
  })

  it('reports, never throws, an answer that does not parse', () => {
    const xml = htmlFormAnswerXml({ story: 'x' })
    for (const bad of [
      xml.slice(0, 60),
      '<Other/>',
      'not xml',
      crowdFormAnswerXml([]).replace('[]', '[{oops'),
    ]) {
      const parsed = parseAnswer(bad)
      expect(parsed.ok).toBe(false)
      if (!parsed.ok) expect(parsed.error).not.toBe('')
    }
  })

  it('tolerates a whole taskAnswers blob that was HTML-escaped', () => {
    expect(flattenTaskAnswers('[{&quot;a&quot;:&quot;b&quot;}]')).toEqual({
      ok: true,
      fields: { a: 'b' },
    })
    expect(htmlUnescape('&amp;amp; &#x41; &#65; &unknown;')).toBe('&amp; A A &unknown;')
  })
})

describe('the plain-layout fast path', () => {
  const tricky = fc.string({
    unit: fc.constantFrom(
      'a',
      ' ',
      '&',
      '<',
      '>',
      '"',
      "'",
      ']',
      ';',
      '#',
      'é',
      '—',
      '\n',
      '&amp;',
      '&#39;',
      '>Causes>',
    ),
  })
  const fields = fc.dictionary(
    fc.constantFrom('story', '1_specificNL', 'x y', 'a&b', 'doNotRedirect', 'q'),
    tricky,
  )

  it('reads exactly what the XML library reads, for any field values', () => {
    fc.assert(
      fc.property(fields, fc.boolean(), (f, escaped) => {
        for (const xml of [
          htmlFormAnswerXml(f),
          crowdFormAnswerXml([f]),
          questionFormAnswersXml(Object.entries(f).map(([id, freeText]) => ({ id, freeText }))),
        ]) {
          expect(scanPlainAnswers(xml, escaped)).not.toBeNull()
          expect(parseAnswer(xml, { htmlEscaped: escaped })).toEqual(
            parseAnswer(xml, { htmlEscaped: escaped, fastPath: false }),
          )
        }
      }),
      { numRuns: 300 },
    )
  })

  it('leaves selections, CDATA, prefixes and broken documents to the XML library', () => {
    const xml = htmlFormAnswerXml({ story: 'x' })
    for (const other of [
      questionFormAnswersXml([{ id: 'c', selections: ['a'] }]),
      xml.replace('<FreeText>x', '<FreeText><![CDATA[x]]>'),
      xml.slice(0, 80),
      xml.replace('</Answer>', '</Answer><!-- note -->'),
      xml.replace('>x<', '>a &nbsp; b<'),
      xml + '<extra/>',
    ]) {
      expect(scanPlainAnswers(other, true)).toBeNull()
    }
  })
})

describe('entity decoding', () => {
  /** The regular expression the scan replaced, kept as the reference it must agree with. */
  const reference = (table: Record<string, string>, s: string): string =>
    s.replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g, (whole, name: string) => {
      if (name.startsWith('#')) {
        const code = /^#[xX]/.test(name) ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      }
      return Object.hasOwn(table, name) ? (table[name] ?? whole) : whole
    })
  const xml = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
  const html = { ...xml, nbsp: '\u00a0' }
  const text = fc
    .array(
      fc.constantFrom(
        '&',
        ';',
        '#',
        'x',
        'X',
        '0',
        '9',
        'f',
        'G',
        'amp',
        'lt',
        'nbsp',
        'quot',
        ' ',
        'é',
        '&#x1F600;',
        '&#0;',
        '&#99999999;',
        '&;',
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join(''))

  it('decodes exactly what the regular expression decoded, for any text', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(xmlDecode(s)).toBe(reference(xml, s))
        expect(htmlUnescape(s)).toBe(reference(html, s))
      }),
      { numRuns: 3000 },
    )
  })
})
