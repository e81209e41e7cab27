/**
 * Builds `Assignment.Answer` documents the way the service writes them (FORMATS §3.6): ASCII
 * QuestionFormAnswers XML, non-ASCII as character references, HTMLQuestion values HTML-escaped
 * before XML escaping, crowd-form answers as one `taskAnswers` JSON array.
 */

const NS =
  'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd'

export type XmlAnswer =
  | { id: string; freeText: string }
  | { id: string; selections: string[]; other?: string }
  | { id: string; upload: { key: string; bytes: number } }

function xmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[^\t\n\r -~]/gu, (c) => `&#${c.codePointAt(0)};`)
}

/** What a browser form post of an HTMLQuestion delivers: markup-significant characters escaped. */
function htmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

function answerXml(a: XmlAnswer): string {
  const id = `<QuestionIdentifier>${xmlEscape(a.id)}</QuestionIdentifier>`
  if ('freeText' in a) return `<Answer>${id}<FreeText>${xmlEscape(a.freeText)}</FreeText></Answer>`
  if ('upload' in a) {
    return (
      `<Answer>${id}<UploadedFileSizeInBytes>${a.upload.bytes}</UploadedFileSizeInBytes>` +
      `<UploadedFileKey>${xmlEscape(a.upload.key)}</UploadedFileKey></Answer>`
    )
  }
  const picks = a.selections.map(
    (s) => `<SelectionIdentifier>${xmlEscape(s)}</SelectionIdentifier>`,
  )
  const other =
    a.other === undefined ? '' : `<OtherSelectionText>${xmlEscape(a.other)}</OtherSelectionText>`
  return `<Answer>${id}${picks.join('')}${other}</Answer>`
}

export function questionFormAnswersXml(answers: readonly XmlAnswer[]): string {
  return (
    `<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="${NS}">` +
    answers.map(answerXml).join('') +
    `</QuestionFormAnswers>`
  )
}

/** An HTMLQuestion form post: one FreeText per field, values HTML-escaped. */
export function htmlFormAnswerXml(fields: Readonly<Record<string, string>>): string {
  return questionFormAnswersXml(
    Object.entries(fields).map(([id, value]) => ({ id, freeText: htmlEscape(value) })),
  )
}

/** A crowd-form post: a single `taskAnswers` answer holding a JSON array. */
export function crowdFormAnswerXml(taskAnswers: readonly unknown[]): string {
  return questionFormAnswersXml([{ id: 'taskAnswers', freeText: JSON.stringify(taskAnswers) }])
}
