import { Fragment, useEffect, useRef, useState } from 'react'
import type { ApiErrorInfo } from '../../../../shared/contract'
import {
  COLLECTION_YEARS,
  type ImportFormat,
  type ImportResult,
  type PickedFile,
} from '../../../../shared/contract/imports'
import { api, fileFromPage, isDesktop } from '../../api'
import { errorParts, toErrorInfo } from '../../lib/errors'
import { formatBytes } from '../../lib/format'
import { useStore } from '../../lib/store'
import { useLatest } from '../../lib/useLatest'
import { cancelJob, jobs, whenFinished } from '../jobs/jobs'
import { JobProgressBar, JobRates } from '../jobs/JobProgressView'
import { ErrorText } from '../messages/Messages'
import { showInfo } from '../messages/messages'
import { Modal } from '../shell/Modal'
import { ImportResultTable } from './ImportResultTable'
import { closeImport, importRequest } from './importDialogState'
import {
  type PlannedFile,
  addFiles,
  asImportResult,
  effectiveFormat,
  formatLabels,
  importFormats,
  importRequestFiles,
  needsYear,
  parseYear,
  unrecognised,
} from './importPlan'

type Phase = 'select' | 'running' | 'done' | 'failed' | 'cancelled'

const YEAR_INPUT_ID = 'import-year'

export function ImportDialog() {
  const request = useStore(importRequest)
  const [phase, setPhase] = useState<Phase>('select')
  const [files, setFiles] = useState<PlannedFile[]>([])
  const [busy, setBusy] = useState<string | null>(null)
  const [yearText, setYearText] = useState('')
  const [jobId, setJobId] = useState<string | null>(null)
  const [result, setResult] = useState<ImportResult | null>(null)
  const [error, setError] = useState<ApiErrorInfo | null>(null)
  const takenSeq = useRef(0)
  const input = useRef<HTMLInputElement>(null)
  const startButton = useRef<HTMLButtonElement>(null)
  // Set when files were added: the focus then moves on to the next step (see below).
  const focusNext = useRef(false)

  async function addPicked(picked: readonly PickedFile[]) {
    if (picked.length === 0) return
    setBusy('Reading files…')
    setError(null)
    try {
      const detected = await api.import.detect({ files: picked.map((p) => p.ref) })
      setFiles((current) => addFiles(current, detected))
      focusNext.current = true
    } catch (e) {
      setError(toErrorInfo(e))
    } finally {
      setBusy(null)
    }
  }

  async function addPageFiles(list: readonly File[]) {
    if (list.length === 0) return
    setBusy(
      isDesktop
        ? 'Reading files…'
        : `Uploading ${list.length === 1 ? list[0]?.name : `${list.length} files`}…`,
    )
    setError(null)
    try {
      const picked: PickedFile[] = []
      for (const file of list) {
        const p = await fileFromPage(file)
        if (p) picked.push(p)
      }
      await addPicked(picked)
    } catch (e) {
      setError(toErrorInfo(e))
      setBusy(null)
    }
  }

  async function pickNative() {
    try {
      await addPicked(await api.import.pickFiles({}))
    } catch (e) {
      setError(toErrorInfo(e))
    }
  }

  // Files dropped on the window while the dialog opens (or is already open).
  const onDropped = useLatest((dropped: readonly File[]) => {
    if (phase === 'running') {
      showInfo('An import is running; drop the files again when it has finished.')
      return
    }
    if (phase !== 'select') reset()
    void addPageFiles(dropped)
  })
  useEffect(
    () =>
      importRequest.subscribe(() => {
        const r = importRequest.get()
        if (!r.open || r.seq === takenSeq.current) return
        takenSeq.current = r.seq
        if (r.dropped.length > 0) onDropped.current(r.dropped)
      }),
    [onDropped],
  )

  const year = parseYear(yearText)

  // After files were added, Enter goes on: to the year when their dates need one, else to Import.
  useEffect(() => {
    if (!focusNext.current) return
    focusNext.current = false
    const yearField = document.getElementById(YEAR_INPUT_ID)
    if (yearField && year === null) yearField.focus()
    else if (startButton.current && !startButton.current.disabled) startButton.current.focus()
  })

  const yearNeeded = needsYear(files)
  const waiting = unrecognised(files)
  const canStart =
    phase === 'select' &&
    files.length > 0 &&
    waiting.length === 0 &&
    busy === null &&
    (!yearNeeded || year !== null)

  async function start() {
    if (!canStart) return
    setPhase('running')
    setError(null)
    setResult(null)
    try {
      const { jobId: id } = await api.import.start({
        files: importRequestFiles(files),
        ...(yearNeeded && year !== null ? { year } : {}),
      })
      setJobId(id)
      const final = await whenFinished(id)
      if (final.state === 'cancelled') {
        setPhase('cancelled')
        return
      }
      if (final.state === 'failed') {
        setError(final.error ?? { type: 'internal', code: 'job', message: 'The import failed.' })
        setPhase('failed')
        return
      }
      setResult(asImportResult(final.result))
      setPhase('done')
    } catch (e) {
      setError(toErrorInfo(e))
      setPhase('failed')
    }
  }

  function reset() {
    setPhase('select')
    setFiles([])
    setJobId(null)
    setResult(null)
    setError(null)
    setYearText('')
  }

  function close() {
    // A running import keeps going in the job tray.
    reset()
    closeImport()
  }

  if (!request.open) return null

  const footer =
    phase === 'select' ? (
      <>
        {waiting.length > 0 && (
          <span className="footer-hint" data-testid="import-hint">
            {/* A chosen format must fit the header too: choosing one only shows what differs. */}
            Remove {waiting.map((f) => f.detected.name).join(', ')} to import the rest:{' '}
            {waiting.length === 1 ? 'it fits' : 'they fit'} no GLUCOSE layout as{' '}
            {waiting.length === 1 ? 'it is' : 'they are'}.
          </span>
        )}
        <button onClick={close}>Cancel</button>
        <button
          className="primary"
          ref={startButton}
          disabled={!canStart}
          data-testid="import-start"
          onClick={() => void start()}
        >
          Import {files.length > 1 ? `${files.length} files` : ''}
        </button>
      </>
    ) : phase === 'running' ? (
      <>
        <button onClick={close} title="The import continues in the job tray">
          Hide
        </button>
        <CancelButton
          jobId={jobId}
          onCancel={(id) => void cancelJob(id).catch((e: unknown) => setError(toErrorInfo(e)))}
        />
      </>
    ) : (
      <>
        <button onClick={reset} data-testid="import-again">
          Import more…
        </button>
        <button className="primary" onClick={close} data-testid="import-close">
          Close
        </button>
      </>
    )

  return (
    <Modal title="Import data files" onClose={close} footer={footer} testId="import-dialog" wide>
      {phase === 'select' && (
        <SelectFiles
          files={files}
          busy={busy}
          yearNeeded={yearNeeded}
          yearText={yearText}
          yearValid={year !== null}
          onYear={setYearText}
          onEnter={() => void start()}
          onOverride={(i, format) =>
            setFiles((current) => current.map((f, j) => (j === i ? { ...f, override: format } : f)))
          }
          onRemove={(i) => setFiles((current) => current.filter((_, j) => j !== i))}
          onPickNative={() => void pickNative()}
          onChooseClick={() => input.current?.click()}
        />
      )}
      <input
        ref={input}
        type="file"
        multiple
        className={phase === 'select' ? 'file-input' : 'hidden'}
        accept=".csv,.tsv,.txt,text/csv"
        data-testid="import-file-input"
        aria-label="Choose data files"
        onChange={(e) => {
          const chosen = [...(e.target.files ?? [])]
          e.target.value = ''
          void addPageFiles(chosen)
        }}
      />
      {phase === 'running' && <Running jobId={jobId} />}
      {phase === 'done' && result && <ImportResultTable result={result} />}
      {phase === 'cancelled' && (
        <p className="note" data-testid="import-cancelled">
          Import cancelled. The project is as it was before.
        </p>
      )}
      {error && (
        <div className="error-box" role="alert" data-testid="error-message">
          <ErrorText {...errorParts(error)} />
          {phase === 'failed' && (
            <p className="note">Nothing was imported; the project is unchanged.</p>
          )}
        </div>
      )}
    </Modal>
  )
}

/** Names the files whose dates have no year, since the other files in the list do not ask. */
function YearQuestion({ names }: { names: string[] }) {
  const one = names.length === 1
  return (
    <span>
      {names.join(', ')} {one ? 'writes' : 'write'} dates without a year (like <code>917</code> for
      17 September). Which year {one ? 'was it' : 'were they'} collected in?
    </span>
  )
}

interface SelectFilesProps {
  files: PlannedFile[]
  busy: string | null
  yearNeeded: boolean
  yearText: string
  yearValid: boolean
  onYear: (text: string) => void
  /** Enter in the year field: start, as the Import button would. */
  onEnter: () => void
  onOverride: (index: number, format: ImportFormat | null) => void
  onRemove: (index: number) => void
  onPickNative: () => void
  onChooseClick: () => void
}

function SelectFiles(p: SelectFilesProps) {
  return (
    <div className="import-select">
      <div className="drop-hint">
        {isDesktop ? (
          <button className="primary" onClick={p.onPickNative} data-testid="import-pick">
            Choose files…
          </button>
        ) : (
          <button className="primary" onClick={p.onChooseClick} data-testid="import-choose">
            Choose files…
          </button>
        )}
        <span>or drop GLUCOSE CSV files anywhere on the window.</span>
      </div>
      {p.busy && <p className="note busy">{p.busy}</p>}
      {p.files.length > 0 && (
        <table className="table import-files" data-testid="import-files">
          <thead>
            <tr>
              <th>File</th>
              <th className="num">Size</th>
              <th>Format</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {p.files.map((f, i) => (
              <Fragment key={i}>
                <tr data-testid="import-file" className={f.detected.problem ? 'has-problem' : ''}>
                  <td className="file-name">{f.detected.name}</td>
                  <td className="num">{formatBytes(f.detected.bytes)}</td>
                  <td>
                    <select
                      aria-label={`Format of ${f.detected.name}`}
                      data-testid="import-format"
                      value={effectiveFormat(f) ?? ''}
                      onChange={(e) =>
                        p.onOverride(i, (e.target.value || null) as ImportFormat | null)
                      }
                    >
                      {f.detected.format === null && (
                        <option value="">Not recognised — choose…</option>
                      )}
                      {importFormats.map((format) => (
                        <option key={format} value={format}>
                          {formatLabels[format]}
                          {format === f.detected.format ? ' (detected)' : ''}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <button
                      className="icon-button"
                      aria-label={`Remove ${f.detected.name}`}
                      onClick={() => p.onRemove(i)}
                    >
                      ×
                    </button>
                  </td>
                </tr>
                {f.detected.problem && (
                  <tr className="file-problem-row">
                    <td colSpan={4} className="file-problem" data-testid="import-file-problem">
                      {f.detected.problem}
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {p.yearNeeded && (
        <label className="field year-field">
          <YearQuestion
            names={p.files.filter((f) => f.detected.needsYear).map((f) => f.detected.name)}
          />
          <input
            type="text"
            inputMode="numeric"
            maxLength={4}
            placeholder="YYYY"
            value={p.yearText}
            aria-invalid={p.yearText !== '' && !p.yearValid}
            id={YEAR_INPUT_ID}
            data-testid="year-input"
            onChange={(e) => p.onYear(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') p.onEnter()
            }}
          />
          {p.yearText !== '' && !p.yearValid && (
            <span className="field-error">
              A year from {COLLECTION_YEARS.min} to {COLLECTION_YEARS.max}.
            </span>
          )}
        </label>
      )}
    </div>
  )
}

function CancelButton({
  jobId,
  onCancel,
}: {
  jobId: string | null
  onCancel: (id: string) => void
}) {
  const all = useStore(jobs)
  // The job says what cancelling does now: after the commit it only stops the search indexing.
  const cancel = jobId === null ? undefined : all.get(jobId)?.cancel
  return (
    <button
      data-testid="import-cancel"
      disabled={jobId === null}
      title={cancel?.hint}
      onClick={() => {
        if (jobId) onCancel(jobId)
      }}
    >
      {cancel?.label ?? 'Cancel import'}
    </button>
  )
}

function Running({ jobId }: { jobId: string | null }) {
  const all = useStore(jobs)
  const job = jobId ? all.get(jobId) : undefined
  if (!job) {
    return (
      <div className="import-running">
        <div
          className="progress progress-indeterminate"
          role="progressbar"
          aria-label="Starting import"
          data-testid="import-progress"
        >
          <div className="progress-fill" style={{ width: '30%' }} />
        </div>
        <p className="note">Starting…</p>
      </div>
    )
  }
  return (
    <div className="import-running">
      <p>{job.title}</p>
      <JobProgressBar job={job} testId="import-progress" />
      <JobRates job={job} />
    </div>
  )
}
