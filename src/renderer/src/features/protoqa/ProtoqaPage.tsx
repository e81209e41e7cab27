import { useCallback, useEffect, useState } from 'react'
import type { ProtoqaOverview, QuestionSummary } from '../../../../shared/protoqa/model'
import { MIN_TOP_ANSWERS } from '../../../../shared/protoqa/selection'
import { api } from '../../api'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { usePageTab } from '../shell/navigation'
import { ClusterBoard } from './ClusterBoard'
import { ComparePanel } from './ComparePanel'
import { ExportPanel } from './ExportPanel'
import { ImportButton } from './ImportButton'
import { ScorePanel } from './ScorePanel'
import './protoqa.css'
import { plural } from '../../lib/format'

type Mode = 'cluster' | 'compare' | 'scores' | 'export'

const MODES: { id: Mode; label: string }[] = [
  { id: 'cluster', label: 'Cluster' },
  { id: 'compare', label: 'Compare & decide' },
  { id: 'scores', label: 'Scores' },
  { id: 'export', label: 'Export' },
]

/**
 * ProtoQA questions: cluster each question's answers (every reviewer apart), compare two
 * reviewers' clusterings and record the final one, score predictions, export.
 */
export function ProtoqaPage() {
  const dataVersion = useStore(projectState).dataVersion
  const [overview, setOverview] = useState<(ProtoqaOverview & { you: string }) | null>(null)
  const [questions, setQuestions] = useState<QuestionSummary[]>([])
  const [selected, setSelected] = useState<string | null>(null)
  // The Release page links to the Export tab.
  const [mode, setMode] = usePageTab<Mode>(
    'protoqa',
    MODES.map((m) => m.id),
    'cluster',
  )
  const [reviewer, setReviewer] = useState('')
  const [finalDraftFrom, setFinalDraftFrom] = useState<string | null>(null)

  const reload = useCallback(() => {
    Promise.all([api.protoqa.overview({}), api.protoqa.questions({})])
      .then(([o, q]) => {
        setOverview(o)
        setQuestions(q)
        setReviewer((r) => r || o.you)
        setSelected((s) => s ?? q[0]?.id ?? null)
      })
      .catch((e: unknown) => showError('Loading ProtoQA questions', e))
  }, [])
  useEffect(() => reload(), [reload, dataVersion])

  if (overview === null) return <div className="protoqa-page" />
  return (
    <div className="protoqa-page" data-testid="protoqa-page">
      <header className="protoqa-head">
        <h2>ProtoQA</h2>
        <span className="protoqa-totals" data-testid="protoqa-totals">
          {plural(overview.questions, 'question')} · {plural(overview.answers, 'answer')} ·{' '}
          {plural(overview.responses, 'response')}
        </span>
        <label className="protoqa-reviewer">
          Reviewer
          <input
            data-testid="protoqa-reviewer"
            value={reviewer}
            onChange={(e) => setReviewer(e.target.value)}
            size={12}
          />
        </label>
        <div className="protoqa-modes" role="tablist">
          {MODES.map((m) => (
            <button
              key={m.id}
              role="tab"
              aria-selected={mode === m.id}
              data-testid={`protoqa-mode-${m.id}`}
              className={mode === m.id ? 'primary small' : 'small'}
              onClick={() => setMode(m.id)}
            >
              {m.label}
            </button>
          ))}
        </div>
        <ImportButton onImported={reload} />
      </header>
      {questions.length === 0 ? (
        <p className="protoqa-empty">
          This project holds no ProtoQA questions yet. Import a ProtoQA JSONL file, a raw answer
          list (CSV: question id, question, answer, worker id) or prediction files.
        </p>
      ) : (
        <div className="protoqa-body">
          {mode !== 'export' && mode !== 'scores' && (
            <QuestionList questions={questions} selected={selected} onSelect={setSelected} />
          )}
          <main className="protoqa-main">
            {mode === 'cluster' && selected && (
              <ClusterBoard
                key={`${selected}:${reviewer}:${finalDraftFrom ?? ''}`}
                question={selected}
                reviewer={reviewer.trim()}
                startFrom={finalDraftFrom}
                onSaved={() => {
                  setFinalDraftFrom(null)
                  reload()
                }}
              />
            )}
            {mode === 'compare' && selected && (
              <ComparePanel
                question={selected}
                onDecide={(from) => {
                  setFinalDraftFrom(from)
                  setMode('cluster')
                }}
              />
            )}
            {mode === 'scores' && (
              <ScorePanel sets={overview.predictionSets} questions={questions} />
            )}
            {mode === 'export' && <ExportPanel />}
          </main>
        </div>
      )}
    </div>
  )
}

function QuestionList({
  questions,
  selected,
  onSelect,
}: {
  questions: QuestionSummary[]
  selected: string | null
  onSelect: (id: string) => void
}) {
  return (
    <nav className="protoqa-questions" aria-label="Questions" data-testid="protoqa-questions">
      {questions.map((q) => (
        <button
          key={q.id}
          className={q.id === selected ? 'protoqa-question selected' : 'protoqa-question'}
          aria-current={q.id === selected}
          data-testid={`protoqa-question-${q.id}`}
          onClick={() => onSelect(q.id)}
        >
          <span className="protoqa-question-id">{q.id}</span>
          <span className="protoqa-question-text">{q.question}</span>
          <span className="protoqa-question-meta">
            {plural(q.responses, 'response')} · {plural(q.reviewers.length, 'reviewer')}
            {q.final ? ' · final' : ''}
            {q.topAnswers !== null && q.topAnswers < MIN_TOP_ANSWERS && (
              <span className="protoqa-warn"> · top 8: {q.topAnswers}</span>
            )}
          </span>
        </button>
      ))}
    </nav>
  )
}
