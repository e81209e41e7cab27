import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importHalie } from '../../src/main/collections/halie/import'
import { halieSourcesIn } from '../../src/main/collections/halie/read'
import { openProject } from '../../src/main/db/connection'
import { sessionDetail, sessionsById } from '../../src/main/collections/halie/db/sessions'
import { staticBlocks } from '../../src/shared/halie/staticView'
import { HEADERS, writeHalieFolder } from '../helpers/halie'
import { withProject } from '../helpers/project'
import { useTempDir } from '../helpers/tmp'

const tempDir = useTempDir()

describe('a HALIE session page', () => {
  it('joins session metadata lines on verification_code, by their domain', () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'))
    const question = folder.sessions.find((s) => s.task === 'question')
    if (!question) throw new Error('no question session')
    const line = JSON.stringify({
      session_id: 'internal-1',
      verification_code: question.id,
      domain: 'interactiveqa',
      start_timestamp: 1654237165.3,
      iqa_sequence_index: '-1',
    })
    writeFileSync(join(folder.dir, 'sessions.jsonl'), `${line}\n`)
    const db = join(dir, 'p.winnow')
    openProject(db, { create: true }).close()
    withProject(db, (p) => {
      importHalie(p, halieSourcesIn(folder.dir))
      const [found] = sessionsById(p, question.id)
      const detail = sessionDetail(p, found?.id ?? 0)
      expect(found?.task).toBe('question')
      expect(detail?.metadata).toBe(line)
      expect(detail?.tables.map((t) => t.kind)).toEqual(['event_blocks', 'survey_responses'])
      expect(detail?.tables[0]?.rows.length).toBe(question.blocks)
    })
  })

  it('shows each question with its queries and the model’s answers in order, without a raw log', () => {
    const header = HEADERS.question.event_blocks
    const row = header.map((h) =>
      h === 'question_text'
        ? 'What is 2?'
        : h === 'user_queries'
          ? `['first', "it's second"]`
          : h === 'lm_responses'
            ? `['one', 'two']`
            : h === 'user_correct'
              ? '1'
              : h === 'answer'
                ? 'b'
                : '',
    )
    expect(staticBlocks('question', header, [row])).toEqual([
      {
        title: 'What is 2?',
        exchanges: [
          { query: 'first', answer: 'one' },
          { query: "it's second", answer: 'two' },
        ],
        note: 'answered  (correct; the answer is b: )',
      },
    ])
  })
})
