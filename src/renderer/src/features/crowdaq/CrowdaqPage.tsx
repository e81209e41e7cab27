import { useCallback, useEffect, useRef, useState } from 'react'
import type {
  CrowdaqOverview,
  QuestionSetPreview,
  TaskPreview,
} from '../../../../shared/crowdaq/contract'
import { api, fileFromPage } from '../../api'
import { plural } from '../../lib/format'
import { whenFinished } from '../jobs/jobs'
import { showError, showInfo } from '../messages/messages'
import { ExamPanel } from './ExamPanel'
import { QuestionSetEditor } from './QuestionSetEditor'
import { QuestionSetView } from './QuestionSetView'
import { TaskReviewPanel } from './TaskReviewPanel'
import { TaskView } from './TaskView'
import './crowdaq.css'

type Selection =
  | { kind: 'exam'; id: string }
  | { kind: 'tutorial'; id: string }
  | { kind: 'task'; id: string }
  | { kind: 'responses' }
  | { kind: 'author'; target: 'exam' | 'tutorial'; id: string | null }

/** CROWDAQ: import exams, tutorials, instructions and tasks; preview, grade, report, qualify. */
export function CrowdaqPage() {
  const [overview, setOverview] = useState<CrowdaqOverview | null>(null)
  const [selected, setSelected] = useState<Selection | null>(null)
  const [preview, setPreview] = useState<QuestionSetPreview | TaskPreview | null>(null)
  // Each preview is a fresh attempt: its answers start empty.
  const [previewCount, setPreviewCount] = useState(0)
  const [importing, setImporting] = useState(false)
  const fileInput = useRef<HTMLInputElement>(null)

  const refresh = useCallback(async () => {
    try {
      setOverview(await api.crowdaq.overview({}))
    } catch (e) {
      showError('Reading the CROWDAQ collection', e)
    }
  }, [])
  useEffect(() => {
    let live = true
    api.crowdaq
      .overview({})
      .then((o) => live && setOverview(o))
      .catch((e: unknown) => live && showError('Reading the CROWDAQ collection', e))
    return () => {
      live = false
    }
  }, [])

  // Each file is an import job (progress and Cancel in the job list), one after the other.
  async function importFiles(files: FileList | null) {
    setImporting(true)
    for (const file of Array.from(files ?? [])) {
      try {
        const picked = await fileFromPage(file)
        if (!picked) continue
        const { jobId } = await api.crowdaq.import({
          file: picked.ref,
          ...(selected?.kind === 'exam' ? { examId: selected.id } : {}),
        })
        const job = await whenFinished(jobId)
        if (job.state === 'succeeded') showInfo(job.detail)
        else if (job.state === 'cancelled')
          showInfo(`Import of ${file.name} cancelled; nothing was imported.`)
        else showError(`Importing ${file.name}`, job.error)
      } catch (e) {
        showError(`Importing ${file.name}`, e)
      }
    }
    setImporting(false)
    await refresh()
  }

  async function open(s: Selection) {
    setSelected(s)
    setPreview(null)
    setPreviewCount((n) => n + 1)
    if (s.kind === 'responses' || s.kind === 'author') return
    try {
      setPreview(
        s.kind === 'task'
          ? await api.crowdaq.previewTask({ id: s.id })
          : await api.crowdaq.previewQuestions({ kind: s.kind, id: s.id }),
      )
    } catch (e) {
      showError(`Opening ${s.kind} ${s.id}`, e)
    }
  }

  const exam = selected?.kind === 'exam' ? overview?.exams.find((e) => e.id === selected.id) : null
  // A new import of responses reads the review again.
  const responses = overview?.taskResponses ?? 0
  return (
    <div className="cq-page">
      <aside className="cq-list">
        <button
          className="primary cq-import"
          disabled={importing}
          data-testid="cq-import"
          onClick={() => fileInput.current?.click()}
        >
          {importing ? 'Importing…' : 'Import CROWDAQ files…'}
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          accept=".json,.zip,.md,.csv"
          data-testid="cq-import-input"
          hidden
          onChange={(e) => {
            void importFiles(e.target.files)
            e.target.value = ''
          }}
        />
        <p className="cq-new">
          <button
            className="small"
            data-testid="cq-new-exam"
            onClick={() => void open({ kind: 'author', target: 'exam', id: null })}
          >
            New exam
          </button>{' '}
          <button
            className="small"
            data-testid="cq-new-tutorial"
            onClick={() => void open({ kind: 'author', target: 'tutorial', id: null })}
          >
            New tutorial
          </button>
        </p>
        <h3>Exams</h3>
        <ul data-testid="cq-exams">
          {overview?.exams.map((e) => (
            <li key={e.id}>
              <button className="link" onClick={() => void open({ kind: 'exam', id: e.id })}>
                {e.id}
              </button>{' '}
              <span className="note">
                {plural(e.questions, 'question')}, {plural(e.attempts, 'attempt')}
              </span>
            </li>
          ))}
        </ul>
        <h3>Tutorials</h3>
        <ul>
          {overview?.tutorials.map((id) => (
            <li key={id}>
              <button className="link" onClick={() => void open({ kind: 'tutorial', id })}>
                {id}
              </button>
            </li>
          ))}
        </ul>
        <h3>Tasks</h3>
        {overview && overview.taskResponses > 0 && (
          <button
            className="link"
            data-testid="cq-all-responses"
            onClick={() => void open({ kind: 'responses' })}
          >
            Review all {plural(overview.taskResponses, 'response')}
          </button>
        )}
        <ul data-testid="cq-tasks">
          {overview?.tasks.map((id) => (
            <li key={id}>
              <button className="link" onClick={() => void open({ kind: 'task', id })}>
                {id}
              </button>
            </li>
          ))}
        </ul>
        {overview && (
          <p className="note">Instructions: {overview.instructions.join(', ') || 'none'}</p>
        )}
      </aside>
      <main className="cq-main">
        {!selected && (
          <p className="note">Import CROWDAQ files, then pick an exam, tutorial or task.</p>
        )}
        {selected && <h2>{heading(selected)}</h2>}
        {selected?.kind === 'author' && (
          <QuestionSetEditor
            key={`${selected.target}-${selected.id ?? ''}`}
            kind={selected.target}
            id={selected.id}
            onCancel={() =>
              void (selected.id === null
                ? setSelected(null)
                : open({ kind: selected.target, id: selected.id }))
            }
            onSaved={(id) => {
              showInfo(`Saved ${selected.target} ${id}.`)
              void refresh().then(() => open({ kind: selected.target, id }))
            }}
          />
        )}
        {(selected?.kind === 'exam' || selected?.kind === 'tutorial') && (
          <button
            className="small"
            data-testid="cq-edit"
            onClick={() => void open({ kind: 'author', target: selected.kind, id: selected.id })}
          >
            Edit {selected.kind}
          </button>
        )}
        {exam && <ExamPanel exam={exam} onChanged={() => void refresh()} />}
        {selected?.kind === 'exam' && (
          <button
            className="small"
            data-testid="cq-new-attempt"
            onClick={() => void open(selected)}
          >
            Preview another attempt
          </button>
        )}
        {preview && 'questions' in preview && (
          <QuestionSetView key={previewCount} preview={preview} />
        )}
        {preview && 'groups' in preview && <TaskView key={preview.id} task={preview} />}
        {selected?.kind === 'task' && (
          <>
            <h3>Responses to this task</h3>
            <TaskReviewPanel key={`${selected.id}-${responses}`} taskId={selected.id} />
          </>
        )}
        {selected?.kind === 'responses' && <TaskReviewPanel key={responses} />}
      </main>
    </div>
  )
}

function heading(s: Selection): string {
  if (s.kind === 'responses') return 'Task responses'
  if (s.kind === 'author') return s.id === null ? `New ${s.target}` : `Editing ${s.target} ${s.id}`
  return s.id
}
