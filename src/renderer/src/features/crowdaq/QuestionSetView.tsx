import { useState } from 'react'
import type { QuestionSetPreview } from '../../../../shared/crowdaq/contract'
import { ContextView, SafeContent } from './SafeContent'
import { plural } from '../../lib/format'

/**
 * An exam attempt or a tutorial as a worker sees it. A tutorial explains each choice at once; an
 * exam, once submitted, says only how many were wrong and whether that passes.
 */
export function QuestionSetView({ preview }: { preview: QuestionSetPreview }) {
  const [chosen, setChosen] = useState<Record<string, string>>({})
  const [submitted, setSubmitted] = useState(false)
  const mistakes = preview.questions.filter((q) => chosen[q.questionId] !== q.answer).length
  const grade = preview.questions.length === 0 ? 0 : 1 - mistakes / preview.questions.length
  const passing = preview.settings?.passingGrade ?? 1
  return (
    <div className="cq-preview" data-testid="cq-preview">
      {preview.instruction && (
        <details className="cq-instruction" data-testid="cq-instruction">
          <summary>Instructions</summary>
          <SafeContent nodes={preview.instruction} />
        </details>
      )}
      {preview.kind === 'exam' && (
        <p className="note">
          {preview.questions.length} of {plural(preview.poolSize, 'question')} (a new random set
          each preview).
        </p>
      )}
      <ol className="cq-questions">
        {preview.questions.map((q) => (
          <li key={q.questionId} data-testid="cq-question">
            {q.contexts.map((c, i) => (
              <ContextView key={i} context={c} />
            ))}
            <p className="cq-question-text">{q.text}</p>
            {q.options.map((o) => (
              <label key={o.key} className="cq-option">
                <input
                  type="radio"
                  name={`q-${q.questionId}`}
                  value={o.key}
                  checked={chosen[q.questionId] === o.key}
                  disabled={submitted}
                  onChange={() => setChosen({ ...chosen, [q.questionId]: o.key })}
                />
                <span className="mono">{o.key}</span> {o.label}
              </label>
            ))}
            {preview.kind === 'tutorial' && chosen[q.questionId] && (
              <p className="note" data-testid="cq-explanation">
                {chosen[q.questionId] === q.answer ? 'Right. ' : 'Not quite. '}
                {q.explanation?.[chosen[q.questionId] ?? ''] ?? ''}
              </p>
            )}
          </li>
        ))}
      </ol>
      {preview.kind === 'exam' && (
        <p>
          <button data-testid="cq-submit" disabled={submitted} onClick={() => setSubmitted(true)}>
            Submit
          </button>{' '}
          {submitted && (
            <span data-testid="cq-result">
              {mistakes} {mistakes === 1 ? 'mistake' : 'mistakes'}:{' '}
              {grade + 1e-9 >= passing ? 'passed' : 'not passed'}
            </span>
          )}
        </p>
      )}
    </div>
  )
}
