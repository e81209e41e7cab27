import { useEffect, useState } from 'react'
import type { AuthoringProblem } from '../../../../shared/crowdaq/contract'
import { api } from '../../api'
import { showError } from '../messages/messages'
import { AttemptSettingsFields } from './AttemptSettingsFields'
import {
  type OptionDraft,
  type QuestionDraft,
  type QuestionSetDraft,
  describePath,
  draftOf,
  newDraft,
  newOption,
  newQuestion,
  nextKey,
  specOf,
} from './questionSetDraft'
import { plural } from '../../lib/format'

/** What an exam or tutorial refers to by id (a tutorial has an instruction only). */
const LINKS = [
  { key: 'instructionId', label: 'Instruction id' },
  { key: 'tutorialId', label: 'Tutorial id' },
] as const

/**
 * Writes or edits an exam or tutorial: its settings, and each question's text, passage, options
 * and correct answer (a tutorial also explains every option). Main checks it as it checks an
 * import; its problems are listed by question and field and nothing is saved until there are none.
 */
export function QuestionSetEditor({
  kind,
  id,
  onSaved,
  onCancel,
}: {
  kind: 'exam' | 'tutorial'
  /** Null: a new one. */
  id: string | null
  onSaved: (id: string) => void
  onCancel: () => void
}) {
  const [draft, setDraft] = useState<QuestionSetDraft | null>(() =>
    id === null ? newDraft(kind) : null,
  )
  const [problems, setProblems] = useState<AuthoringProblem[]>([])
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (id === null) return
    let live = true
    api.crowdaq
      .questionSetSpec({ kind, id })
      .then((spec) => live && setDraft(draftOf(kind, spec)))
      .catch((e: unknown) => live && showError(`Opening ${kind} ${id}`, e))
    return () => {
      live = false
    }
  }, [kind, id])

  if (!draft) return <p className="note">Opening…</p>
  const d = draft
  const set = (patch: Partial<QuestionSetDraft>): void => setDraft({ ...d, ...patch })
  const setQuestion = (uid: number, patch: Partial<QuestionDraft>): void =>
    set({ questions: d.questions.map((q) => (q.uid === uid ? { ...q, ...patch } : q)) })

  async function save() {
    setBusy(true)
    try {
      const result = await api.crowdaq.saveQuestionSet({
        kind,
        spec: specOf(d),
        create: id === null,
      })
      setProblems(result.problems)
      if (result.id !== null) onSaved(result.id)
    } catch (e) {
      showError(`Saving the ${kind}`, e)
    } finally {
      setBusy(false)
    }
  }

  const badQuestions = new Set(
    problems.flatMap((p) => {
      const m = /^\$\.question_set\[(\d+)\]/.exec(p.path)
      return m ? [Number(m[1])] : []
    }),
  )
  return (
    <form
      className="cq-author"
      data-testid="cq-author"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <div className="cq-settings">
        <label>
          {kind === 'exam' ? 'Exam id' : 'Tutorial id'}
          <input
            data-testid="cq-author-id"
            value={d.id}
            readOnly={id !== null}
            placeholder="letters, digits and _"
            onChange={(e) => set({ id: e.target.value })}
          />
        </label>
        {(kind === 'exam' ? LINKS : LINKS.slice(0, 1)).map((link) => (
          <label key={link.key}>
            {link.label}
            <input
              value={d[link.key]}
              placeholder="none"
              onChange={(e) => set({ [link.key]: e.target.value })}
            />
          </label>
        ))}
        {kind === 'exam' && <AttemptSettingsFields value={d} onChange={set} />}
      </div>
      <ol className="cq-author-questions">
        {d.questions.map((q, i) => (
          <li key={q.uid} className={badQuestions.has(i) ? 'cq-author-bad' : undefined}>
            <QuestionForm
              kind={kind}
              index={i}
              question={q}
              onChange={(patch) => setQuestion(q.uid, patch)}
              onRemove={() => set({ questions: d.questions.filter((x) => x.uid !== q.uid) })}
            />
          </li>
        ))}
      </ol>
      <p>
        <button
          type="button"
          data-testid="cq-author-add-question"
          onClick={() => set({ questions: [...d.questions, newQuestion(d)] })}
        >
          Add question
        </button>
      </p>
      {problems.length > 0 && (
        <div className="cq-problems" role="alert" data-testid="cq-author-problems">
          <p>Not saved: {problems.length === 1 ? 'one problem' : `${problems.length} problems`}.</p>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>
                <span className="mono">{describePath(p.path, d)}</span>: {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p>
        <button type="submit" className="primary" data-testid="cq-author-save" disabled={busy}>
          Save {kind}
        </button>{' '}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  )
}

function QuestionForm({
  kind,
  index,
  question: q,
  onChange,
  onRemove,
}: {
  kind: 'exam' | 'tutorial'
  index: number
  question: QuestionDraft
  onChange: (patch: Partial<QuestionDraft>) => void
  onRemove: () => void
}) {
  const setOption = (uid: number, patch: Partial<OptionDraft>): void => {
    const before = q.options.find((o) => o.uid === uid)
    const options = q.options.map((o) => (o.uid === uid ? { ...o, ...patch } : o))
    // Renaming the correct option's key keeps it correct.
    const answer =
      before && patch.key !== undefined && q.answer === before.key ? patch.key : q.answer
    onChange({ options, answer })
  }
  const name = `cq-author-q${index + 1}`
  return (
    <fieldset className="cq-author-question" data-testid={name}>
      <legend>Question {index + 1}</legend>
      <label>
        Question id
        <input
          data-testid={`${name}-id`}
          value={q.questionId}
          readOnly={q.saved}
          onChange={(e) => onChange({ questionId: e.target.value })}
        />
      </label>
      <label className="cq-author-wide">
        Question
        <input
          data-testid={`${name}-text`}
          value={q.text}
          onChange={(e) => onChange({ text: e.target.value })}
        />
      </label>
      {q.passageEditable ? (
        <label className="cq-author-wide">
          Passage (text shown above the question; optional)
          <textarea
            rows={2}
            value={q.passage}
            onChange={(e) => onChange({ passage: e.target.value })}
          />
        </label>
      ) : (
        <p className="note">
          {plural(q.original?.question.context?.length ?? 0, 'context')} kept as imported (HTML or
          media).
        </p>
      )}
      <table className="table compact">
        <thead>
          <tr>
            <th>Correct</th>
            <th>Key</th>
            <th>Option</th>
            {kind === 'tutorial' && <th>Explanation</th>}
            <th />
          </tr>
        </thead>
        <tbody>
          {q.options.map((o, k) => (
            <tr key={o.uid}>
              <td>
                <input
                  type="radio"
                  name={`${name}-answer`}
                  aria-label={`Option ${o.key} is correct`}
                  data-testid={`${name}-correct-${k}`}
                  checked={q.answer === o.key}
                  onChange={() => onChange({ answer: o.key })}
                />
              </td>
              <td>
                <input
                  className="cq-author-key"
                  aria-label="Key"
                  value={o.key}
                  onChange={(e) => setOption(o.uid, { key: e.target.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Option ${o.key}`}
                  data-testid={`${name}-option-${k}`}
                  value={o.label}
                  onChange={(e) => setOption(o.uid, { label: e.target.value })}
                />
              </td>
              {kind === 'tutorial' && (
                <td>
                  <input
                    aria-label={`Explanation of ${o.key}`}
                    data-testid={`${name}-explain-${k}`}
                    value={o.explanation}
                    onChange={(e) => setOption(o.uid, { explanation: e.target.value })}
                  />
                </td>
              )}
              <td>
                <button
                  type="button"
                  className="small"
                  disabled={q.options.length <= 1}
                  onClick={() => onChange({ options: q.options.filter((x) => x.uid !== o.uid) })}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        className="small"
        data-testid={`${name}-add-option`}
        onClick={() => onChange({ options: [...q.options, newOption(nextKey(q.options))] })}
      >
        Add option
      </button>{' '}
      {kind === 'exam' && (
        <label className="cq-option-inline">
          <input
            type="checkbox"
            data-testid={`${name}-disabled`}
            checked={q.disabled}
            onChange={(e) => onChange({ disabled: e.target.checked })}
          />{' '}
          Disabled (kept, never asked)
        </label>
      )}{' '}
      {(!q.saved || kind === 'tutorial') && (
        <button type="button" className="small" onClick={onRemove}>
          Remove question
        </button>
      )}
    </fieldset>
  )
}
