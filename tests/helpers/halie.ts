import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { zipSync } from 'fflate'
import type { HalieTask } from '../../src/shared/halie/tasks'
import { csvField } from './csv-writers'

/**
 * Generated HALIE data (FORMATS.md §7): each task's standardised tables with every cell shape the
 * format has, and raw logs built by a plain editor model that knows each character's author, so
 * a log's final text and provenance are known without the replay under test.
 */

export function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const hex = (rnd: () => number): string =>
  Array.from({ length: 32 }, () => Math.floor(rnd() * 16).toString(16)).join('')

export const HEADERS: Record<HalieTask, { event_blocks: string[]; survey_responses: string[] }> = {
  dialogue: {
    event_blocks:
      'name,session_id,worker_id,turn_id,model,prompt,prompt_dataset,elapsed_time,user_input,user_num_words,model_completion,model_num_words'.split(
        ',',
      ),
    survey_responses:
      'session_id,worker_id,turn_id,model,prompt,interestingness,boringness,preference,fluency,sensibility,specificity,humanness,quality'.split(
        ',',
      ),
  },
  question: {
    event_blocks:
      'session_id,worker_id,order_id,model,prompt,sequence_id,question_id,question_type,question_category,question_text,choice_a,choice_b,choice_c,choice_d,answer,answer_text,lm_used,user_queries,user_query_types,lm_responses,user_answer,user_correct,elapsed_time,num_queries,num_events'.split(
        ',',
      ),
    survey_responses:
      'session_id,worker_id,model,prompt,fluency,helpfulness,ease,helpfulness_freetext,change_freetext,adjectives'.split(
        ',',
      ),
  },
  crossword: {
    event_blocks:
      'name,session_id,worker_id,model,prompt,elapsed_time,num_queries,num_events,order_id,prompt_dataset,user_query,completion,query_type,query_index,clue_num,clue_direction,clue_type'.split(
        ',',
      ),
    survey_responses:
      'session_id,worker_id,model,prompt,prompt_dataset,fluency,helpfulness,ease,joy,helpfulness_freetext,change_freetext,adjectives'.split(
        ',',
      ),
  },
  summarization: {
    event_blocks:
      'name,session_id,worker_id,order_id,model,prompt,elapsed_time,document,original_summary,original_normalized_summary,original_length,original_consistency,original_coherency,original_relevance,edited_summary,edited_normalized_summary,edited_length,edited_consistency,edited_coherency,edited_relevance,distance,original_consistency_third_party,original_relevance_third_party,original_coherency_third_party,edited_consistency_third_party,edited_relevance_third_party,edited_coherency_third_party'.split(
        ',',
      ),
    survey_responses:
      'session_id,worker_id,model,prompt,improvement,edit,helpfulness,adjectives'.split(','),
  },
  metaphor: {
    event_blocks:
      'session_id,worker_id,order_id,norm_order_id,model,prompt,elapsed_time,num_queries,num_events,acceptance,model_completion,final_sentence,edit_model_final_token,edit_model_final_char,apt,specific,imageable,overall'.split(
        ',',
      ),
    survey_responses:
      'session_id,worker_id,model,prompt,fluency,helpfulness,ease,enjoyment,satisfaction,ownership,reuse'.split(
        ',',
      ),
  },
}
export const ACCURACY_HEADER =
  'session_id,worker_id,model,prompt,prompt_dataset,letter_accuracy,clue_accuracy'.split(',')

const MODELS = ['InstructDavinci', 'InstructBabbage', 'Davinci', 'Jumbo']

/** Python-`repr` list cells of every shape: empty, either quote, escapes. */
export const LIST_CELLS = [
  '[]',
  "['exact', 'keyword']",
  `['In which war was "The Star Spangled Banner" written?']`,
  `["Duck's feet", 'plain']`,
  "['close;question']",
  `['back\\\\slash', 'line\\nbreak', "it's"]`,
]

export interface GeneratedSession {
  task: HalieTask
  id: string
  worker: string
  model: string
  prompt: string
  blocks: number
  queries: number
  elapsedMinutes: number
  accuracy: number | null
  scores: Record<string, number>
}

export interface GeneratedLog {
  task: HalieTask
  session: string
  lines: string[]
  /** The document after every event, and who wrote each character. */
  text: string
  provenance: string
  /** The document after each event (same order as `lines`). */
  after: { ms: number; text: string; provenance: string }[]
}

export interface GeneratedFolder {
  dir: string
  sessions: GeneratedSession[]
  logs: GeneratedLog[]
  counts: Record<
    HalieTask,
    { sessions: number; eventBlocks: number; surveyResponses: number; logs: number }
  >
}

function writeCsv(path: string, header: string[], rows: string[][]): void {
  writeFileSync(path, [header, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n')
}

const fmt = (n: number): string => (Number.isInteger(n) ? `${n}.0` : String(n))

/**
 * A plain editor: a list of characters with their authors. Events are drawn at random — typing,
 * deleting, retains past the text, model inserts, embeds — and the log records each as Quill does.
 */
export function generateLog(
  rnd: () => number,
  options: { events: number; task?: HalieTask; session?: string; start?: number },
): GeneratedLog {
  const task = options.task ?? 'question'
  let clock = options.start ?? 1_654_237_165_345
  const start = clock
  const doc: { ch: string; by: string }[] = []
  const lines: string[] = []
  const after: GeneratedLog['after'] = []
  const snapshot = (): void => {
    after.push({
      ms: clock - start,
      text: doc.map((c) => c.ch).join(''),
      provenance: doc.map((c) => c.by).join(''),
    })
  }
  const base = {
    cursorRange: '',
    currentDoc: '',
    currentCursor: 0,
    currentSuggestions: [],
    currentSuggestionIndex: 0,
    currentHoverIndex: '',
    currentN: '',
    currentMaxToken: '',
    currentTemperature: '',
    currentTopP: '',
    currentPresencePenalty: '',
    currentFrequencyPenalty: '',
    originalSuggestions: [],
  }
  const emit = (e: Record<string, unknown>): void => {
    lines.push(JSON.stringify({ ...base, eventTimestamp: clock, ...e }))
    snapshot()
    clock += 1 + Math.floor(rnd() * 400)
  }
  // A stray delete before the document exists, as real logs have.
  emit({ eventName: 'text-delete', eventSource: 'api', textDelta: { ops: [{ delete: 44 }] } })
  const prompt = 'Prompt: '
  doc.length = 0
  for (const ch of `${prompt}\n`) doc.push({ ch, by: 'P' })
  emit({
    eventName: 'system-initialize',
    eventSource: 'api',
    textDelta: '',
    currentDoc: `${prompt}\n`,
  })
  const words = ['the', 'model', 'said', 'quickly', 'é', '"quoted"', 'line\n', 'tab\t', '😀']
  for (let i = 2; i < options.events; i++) {
    const r = rnd()
    const length = doc.length
    const at = Math.floor(rnd() * (length + 1))
    if (r < 0.45) {
      const text = words[Math.floor(rnd() * words.length)] as string
      doc.splice(at, 0, ...[...text].flatMap((ch) => ch.split('').map((u) => ({ ch: u, by: 'U' }))))
      emit({
        eventName: 'text-insert',
        eventSource: 'user',
        textDelta: { ops: at > 0 ? [{ retain: at }, { insert: text }] : [{ insert: text }] },
      })
    } else if (r < 0.6) {
      const text = ` ${words[Math.floor(rnd() * words.length)] as string} said the model`
      doc.splice(at, 0, ...text.split('').map((ch) => ({ ch, by: 'A' })))
      emit({
        eventName: 'text-insert',
        eventSource: 'api',
        textDelta: { ops: [{ retain: at }, { insert: text, attributes: { bold: true } }] },
      })
    } else if (r < 0.8 && length > 0) {
      const from = Math.min(at, length - 1)
      const n = 1 + Math.floor(rnd() * Math.min(5, length - from))
      doc.splice(from, n)
      emit({
        eventName: 'text-delete',
        eventSource: 'user',
        textDelta: { ops: from > 0 ? [{ retain: from }, { delete: n }] : [{ delete: n }] },
      })
    } else if (r < 0.85) {
      // An embed: skipped by the rebuild, as the format says; the retain after it runs past the end.
      emit({
        eventName: 'text-insert',
        eventSource: 'user',
        textDelta: {
          ops: [{ retain: at }, { insert: { image: 'x.png' } }, { retain: length + 10 }],
        },
      })
    } else if (r < 0.9) {
      emit({
        eventName: 'suggestion-open',
        eventSource: 'api',
        textDelta: '',
        currentSuggestions: [
          { index: 0, original: ' one', trimmed: 'one', probability: -1.5, source: 'gpt3' },
          { index: 1, original: ' two', trimmed: 'two', probability: -2.5, source: 'gpt3' },
        ],
      })
    } else if (r < 0.93) {
      emit({
        eventName: 'suggestion-select',
        eventSource: 'user',
        textDelta: '',
        currentSuggestionIndex: 1,
      })
    } else {
      emit({
        eventName: 'cursor-forward',
        eventSource: 'user',
        textDelta: '',
        cursorRange: { index: at, length: 0 },
      })
    }
  }
  const last = after[after.length - 1] as GeneratedLog['after'][number]
  return {
    task,
    session: options.session ?? hex(rnd),
    lines,
    text: last.text,
    provenance: last.provenance,
    after,
  }
}

/**
 * A HALIE folder: `sessionsPerTask` sessions per task with their tables, and a raw log for each
 * logged task's sessions (question's in `logs/`, metaphor's in `logs.zip`, summarization's too).
 */
export function writeHalieFolder(
  dir: string,
  options: {
    seed?: number
    sessionsPerTask?: number
    blocksPerSession?: number
    logEvents?: number
    /** false: the tables only. */
    logs?: boolean
  } = {},
): GeneratedFolder {
  const rnd = random(options.seed ?? 7)
  const perTask = options.sessionsPerTask ?? 4
  const perSession = options.blocksPerSession ?? 3
  const sessions: GeneratedSession[] = []
  const logs: GeneratedLog[] = []
  const counts = {} as GeneratedFolder['counts']
  const workers = Array.from({ length: 3 }, () => hex(rnd))
  for (const task of Object.keys(HEADERS) as HalieTask[]) {
    const folder = join(dir, task)
    mkdirSync(folder, { recursive: true })
    const eventRows: string[][] = []
    const surveyRows: string[][] = []
    const accuracyRows: string[][] = []
    const zipped: Record<string, Uint8Array> = {}
    for (let s = 0; s < perTask; s++) {
      const worker = workers[s % workers.length] as string
      const model = MODELS[s % MODELS.length] as string
      const prompt = task === 'crossword' ? String(61 + s) : `prompt ${s}, "${task}"`
      const id = task === 'crossword' ? `${prompt}_${worker}_text-davinci` : hex(rnd)
      const session: GeneratedSession = {
        task,
        id,
        worker,
        model,
        prompt,
        blocks: perSession,
        queries: 0,
        elapsedMinutes: 0,
        accuracy: null,
        scores: {},
      }
      let correct = 0
      const row = (cells: Record<string, string>): string[] =>
        HEADERS[task].event_blocks.map((h) => cells[h] ?? '')
      for (let b = 0; b < perSession; b++) {
        const minutes = Math.round(rnd() * 300) / 100
        const queries = Math.floor(rnd() * 3)
        session.elapsedMinutes += minutes
        const keys = {
          session_id: id,
          worker_id: worker,
          model,
          prompt,
          elapsed_time: fmt(minutes),
        }
        const list = LIST_CELLS[(s + b) % LIST_CELLS.length] as string
        if (task === 'dialogue') {
          session.queries += 1
          eventRows.push(
            row({
              ...keys,
              name: `turn-0${b + 1}`,
              turn_id: String(b + 1),
              prompt_dataset: 'empathetic_dialogue',
              user_input: `hi, "there"\n${b}`,
              user_num_words: '2',
              model_completion: '<span class=',
              model_num_words: '2',
            }),
          )
        } else if (task === 'question') {
          const ok = b % 2
          correct += ok
          session.queries += queries
          eventRows.push(
            row({
              ...keys,
              order_id: String(b),
              sequence_id: prompt,
              question_id: String(b),
              question_type: b === 0 ? 'ctrl' : 'lm',
              question_category: 'Misc',
              question_text: `What is ${b}?`,
              choice_a: 'a',
              choice_b: 'b',
              choice_c: 'c',
              choice_d: 'd',
              answer: 'a',
              answer_text: 'a',
              lm_used: queries > 0 ? '1' : '0',
              user_queries: list,
              user_query_types: "['close;question']",
              lm_responses: list,
              user_answer: ok ? 'a' : 'b',
              user_correct: String(ok),
              num_queries: String(queries),
              num_events: '3',
            }),
          )
        } else if (task === 'crossword') {
          session.queries += 1
          eventRows.push(
            row({
              ...keys,
              elapsed_time: '0.0',
              name: `crossword-0${b}`,
              num_queries: '1',
              num_events: '2',
              order_id: String(b),
              prompt_dataset: 'NYT-1',
              user_query: ' "modern persia"\n',
              completion: ' "" inch""',
              query_type: list,
              query_index: `0${b}`,
              clue_num: '1',
              clue_direction: 'across',
              clue_type: b ? '' : 'knowledge',
            }),
          )
          session.elapsedMinutes = 0
        } else if (task === 'summarization') {
          session.queries += 1
          eventRows.push(
            row({
              ...keys,
              name: `summary-0${b}`,
              order_id: String(b),
              document: 'A long, "quoted" document.\nTwo lines.',
              original_summary: 'Short.',
              original_normalized_summary: 'short',
              original_length: '1',
              original_consistency: 'False',
              original_coherency: 'True',
              original_relevance: '',
              edited_summary: 'Shorter.',
              edited_normalized_summary: 'shorter',
              edited_length: '1',
              edited_consistency: 'True',
              edited_coherency: 'True',
              edited_relevance: 'True',
              distance: '3',
              original_consistency_third_party: '1.0',
            }),
          )
        } else {
          session.queries += queries
          eventRows.push(
            row({
              ...keys,
              order_id: String(b),
              norm_order_id: fmt(b / 10),
              num_queries: String(queries),
              num_events: '25',
              acceptance: queries ? '100.0' : '',
              model_completion: "We'll keep dancing.",
              final_sentence: "We'll keep dancing.",
              edit_model_final_token: '0',
              edit_model_final_char: '0',
              apt: '0.5',
              specific: '',
              imageable: '1.0',
              overall: '',
            }),
          )
        }
      }
      session.elapsedMinutes = eventRows
        .filter((r) => r[HEADERS[task].event_blocks.indexOf('session_id')] === id)
        .reduce((sum, r) => sum + Number(r[HEADERS[task].event_blocks.indexOf('elapsed_time')]), 0)
      if (task === 'question') session.accuracy = correct / perSession
      const score = 1 + (s % 5)
      const survey = (cells: Record<string, string>): string[] =>
        HEADERS[task].survey_responses.map((h) => cells[h] ?? '')
      const keys = { session_id: id, worker_id: worker, model, prompt }
      if (task === 'dialogue') {
        surveyRows.push(survey({ ...keys, turn_id: '-1', quality: fmt(score) }))
        session.scores.quality = score
        const flags = [
          'interestingness',
          'boringness',
          'preference',
          'fluency',
          'sensibility',
          'specificity',
          'humanness',
        ]
        for (let t = 1; t <= perSession; t++)
          surveyRows.push(
            survey({
              ...keys,
              turn_id: String(t),
              ...Object.fromEntries(flags.map((f, i) => [f, fmt((t + i) % 2)])),
            }),
          )
        flags.forEach((f, i) => {
          let ones = 0
          for (let t = 1; t <= perSession; t++) ones += (t + i) % 2
          session.scores[f] = ones / perSession
        })
      } else {
        const names = HEADERS[task].survey_responses.filter((h) =>
          [
            'fluency',
            'helpfulness',
            'ease',
            'joy',
            'improvement',
            'edit',
            'enjoyment',
            'satisfaction',
            'ownership',
            'reuse',
          ].includes(h),
        )
        const cells: Record<string, string> = {
          ...keys,
          prompt_dataset: 'NYT-1',
          adjectives: 'helpful, "odd", quick',
          helpfulness_freetext: 'It helped,\nmostly.',
        }
        for (const n of names) {
          // crossword's joy = -1: not asked.
          const value = n === 'joy' && s % 2 === 0 ? -1 : score
          cells[n] = String(value)
          if (value !== -1) session.scores[n] = value
        }
        surveyRows.push(survey(cells))
      }
      if (task === 'crossword') {
        const clue = Math.round(rnd() * 1000) / 1000
        session.accuracy = clue
        accuracyRows.push([id, worker, model, prompt, 'NYT-1', String(clue / 2), String(clue)])
      }
      sessions.push(session)
      const logged = task === 'question' || task === 'metaphor' || task === 'summarization'
      if (logged && options.logs !== false) {
        const log = generateLog(rnd, { events: options.logEvents ?? 60, task, session: id })
        logs.push(log)
        if (task === 'metaphor')
          zipped[`${id}.jsonl`] = new TextEncoder().encode(log.lines.join('\n') + '\n')
        else {
          mkdirSync(join(folder, 'logs'), { recursive: true })
          writeFileSync(join(folder, 'logs', `${id}.jsonl`), log.lines.join('\n') + '\n')
        }
      }
    }
    writeCsv(join(folder, 'event_blocks.csv'), HEADERS[task].event_blocks, eventRows)
    writeCsv(join(folder, 'survey_responses.csv'), HEADERS[task].survey_responses, surveyRows)
    if (task === 'crossword')
      writeCsv(join(folder, 'accuracies.csv'), ACCURACY_HEADER, accuracyRows)
    if (Object.keys(zipped).length > 0) writeFileSync(join(folder, 'logs.zip'), zipSync(zipped))
    counts[task] = {
      sessions: perTask,
      eventBlocks: eventRows.length,
      surveyResponses: surveyRows.length,
      logs: logs.filter((l) => l.task === task).length,
    }
  }
  return { dir, sessions, logs, counts }
}
