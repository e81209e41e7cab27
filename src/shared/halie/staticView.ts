import { CellError, parseReprList } from './cells'
import type { HalieTask } from './tasks'

/** One event block as HALIE's static viewer shows it: the item, then its queries and answers. */
export interface StaticBlock {
  title: string
  /** What the user asked or wrote, and what the model gave back, in order. */
  exchanges: { query: string; answer: string }[]
  note: string
}

function list(cell: string): string[] {
  try {
    return parseReprList(cell)
  } catch (e) {
    if (e instanceof CellError) return [cell]
    throw e
  }
}

/** A session's event blocks in order, for every task (the view of sessions without a raw log). */
export function staticBlocks(
  task: HalieTask,
  header: readonly string[],
  rows: readonly string[][],
): StaticBlock[] {
  return rows.map((cells) => {
    const get = (name: string): string => cells[header.indexOf(name)] ?? ''
    switch (task) {
      case 'question': {
        const queries = list(get('user_queries'))
        const answers = list(get('lm_responses'))
        const correct = get('user_correct') === '1' ? 'correct' : 'wrong'
        return {
          title: get('question_text'),
          exchanges: queries.map((query, i) => ({ query, answer: answers[i] ?? '' })),
          note: `answered ${get('user_answer')} (${correct}; the answer is ${get('answer')}: ${get('answer_text')})`,
        }
      }
      case 'crossword':
        return {
          title: `Clue ${get('clue_num')} ${get('clue_direction')}`,
          exchanges: [{ query: get('user_query').trim(), answer: get('completion').trim() }],
          note: list(get('query_type')).join(', '),
        }
      case 'dialogue':
        return {
          title: `Turn ${get('turn_id')}`,
          exchanges: [{ query: get('user_input'), answer: get('model_completion') }],
          note: '',
        }
      case 'summarization':
        return {
          title: get('document'),
          exchanges: [
            { query: 'The model’s summary', answer: get('original_summary') },
            { query: 'Edited by the user', answer: get('edited_summary') },
          ],
          note: `edit distance ${get('distance')}`,
        }
      case 'metaphor':
        return {
          title: `Line ${Number(get('order_id')) + 1}`,
          exchanges: [{ query: get('model_completion'), answer: get('final_sentence') }],
          note: get('acceptance') ? `${get('acceptance')} % of the suggestion kept` : '',
        }
    }
  })
}
