import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { ApiError } from '../../../../shared/contract'
import type { PolicyApplied, PolicyParamValue } from '../../../../shared/contract/policies'
import { api } from '../../api'
import { useLatest } from '../../lib/useLatest'
import { useShownInPage, whenFinished } from '../jobs/jobs'
import { WriteJobProgress } from '../jobs/WriteJobProgress'
import { showError, showInfo } from '../messages/messages'
import { inTurn, ratingsChanged } from '../ratings/ratingState'
import { CodeEditor, type EditorProblem } from './CodeEditor'
import { DryRunReport } from './DryRunReport'
import { policyState, useKept } from './policyState'
import { ParamForm } from './ParamForm'

const WATCH_MS = 1000

function problemOf(error: unknown): EditorProblem | null {
  if (!(error instanceof ApiError) || error.info.line === undefined) return null
  return {
    line: error.info.line,
    ...(error.info.column !== undefined ? { column: error.info.column } : {}),
    message: error.info.message,
  }
}

/**
 * The Policies page: a policy script in a code editor (or a file on disk, watched), its
 * parameters as a form, a dry run, and apply as one change set that Undo or History reverts.
 */
export function PoliciesPage() {
  const [fileName, setFileName] = useKept(policyState.fileName)
  const [path, setPath] = useKept(policyState.path)
  const [source, setSource] = useKept(policyState.source)
  const [shipped, setShipped] = useState<{ fileName: string; source: string }[]>([])
  const [outline, setOutline] = useKept(policyState.outline)
  const [values, setValues] = useKept(policyState.values)
  const [problem, setProblem] = useState<{ message: string; at: EditorProblem | null } | null>(null)
  const [report, setReport] = useKept(policyState.report)
  const [reportOf, setReportOf] = useKept(policyState.reportOf)
  const [running, setRunning] = useState<'dry' | 'apply' | null>(null)
  const [applied, setApplied] = useKept(policyState.applied)
  const [revertedBy, setRevertedBy] = useKept(policyState.revertedBy)
  // The apply's job: the page shows its progress (and then the report), so the tray keeps clear.
  const [applyJob, setApplyJob] = useState<string | null>(null)
  useShownInPage(applyJob)
  const [watch, setWatch] = useKept(policyState.watch)
  const watched = useRef<number | null>(null)

  useEffect(() => {
    api.policies
      .shipped({})
      .then(setShipped)
      .catch((e: unknown) => showError('Reading the shipped policies', e))
  }, [])

  // Read the script's name and parameters (and its syntax errors) as it is edited.
  useEffect(() => {
    if (source === '') return
    let stale = false
    const timer = setTimeout(() => {
      api.policies
        .outline({ source, fileName })
        .then((o) => {
          if (stale) return
          setOutline(o)
          setProblem(null)
        })
        .catch((e: unknown) => {
          if (!stale) setProblem({ message: (e as Error).message, at: problemOf(e) })
        })
    }, 300)
    return () => {
      stale = true
      clearTimeout(timer)
    }
  }, [source, fileName, setOutline])

  const params = useMemo(() => {
    const out: Record<string, PolicyParamValue | string> = {}
    for (const p of outline?.params ?? []) {
      const v = values[p.name]
      if (v !== undefined) out[p.name] = v
    }
    return out
  }, [outline, values])

  // The script, file name and parameters on the page now; a dry run of other ones confirms nothing.
  const inputKey = JSON.stringify([source, fileName, params])

  const dryRun = useCallback(
    (text = source) => {
      setRunning('dry')
      setApplied(null)
      setRevertedBy(null)
      api.policies
        .dryRun({ source: text, fileName, params })
        .then((r) => {
          setReport(r)
          setReportOf(JSON.stringify([text, fileName, params]))
          setProblem(null)
        })
        .catch((e: unknown) => {
          setReport(null)
          setProblem({ message: (e as Error).message, at: problemOf(e) })
        })
        .finally(() => setRunning(null))
    },
    [source, fileName, params, setApplied, setReport, setReportOf, setRevertedBy],
  )

  const load = (name: string, text: string, from = ''): void => {
    setFileName(name)
    setPath(from)
    setSource(text)
    setValues({})
    setReport(null)
    setApplied(null)
    setRevertedBy(null)
    setProblem(null)
  }

  const openFile = (): void => {
    api.policies
      .readFile({ path })
      .then((f) => {
        load(f.path.split(/[\\/]/).pop() ?? f.path, f.source, f.path)
        watched.current = f.modifiedAt
      })
      .catch((e: unknown) => showError('Opening the policy', e))
  }

  const saveFile = (): void => {
    api.policies
      .saveFile({ path, source })
      .then((f) => {
        watched.current = f.modifiedAt
        showInfo(`Saved ${path}.`)
      })
      .catch((e: unknown) => showError('Saving the policy', e))
  }

  // Watching: when the file changes on disk, read it again and dry run it.
  const latestDryRun = useLatest(dryRun)
  useEffect(() => {
    if (!watch || path === '') return
    const timer = setInterval(() => {
      api.policies
        .readFile({ path })
        .then((f) => {
          if (watched.current === f.modifiedAt) return
          watched.current = f.modifiedAt
          setSource(f.source)
          latestDryRun.current(f.source)
        })
        .catch(() => undefined)
    }, WATCH_MS)
    return () => clearInterval(timer)
  }, [watch, path, latestDryRun, setSource])

  const apply = (): void => {
    if (!report) return
    setRunning('apply')
    void inTurn(async () => {
      try {
        const job = await api.policies.apply({
          source,
          fileName,
          params,
          basis: report.basis,
        })
        setApplyJob(job.id)
        const done = await whenFinished(job.id)
        if (done.state !== 'succeeded') {
          if (done.error) setProblem({ message: done.error.message, at: null })
          return
        }
        // The report stays, marked applied with its change set: it says what a note would.
        setApplied(done.result as PolicyApplied)
        ratingsChanged()
      } catch (e) {
        setProblem({ message: (e as Error).message, at: problemOf(e) })
      } finally {
        setRunning(null)
      }
    })
  }

  const revert = (): void => {
    const id = applied?.changeSet
    if (id == null) return
    void inTurn(async () => {
      try {
        const result = await api.ratings.revert({ changeSetId: id })
        // The applied report says so, with the revert's change set.
        setRevertedBy(result.changeSet)
        ratingsChanged()
      } catch (e) {
        showError('Reverting the policy', e)
      }
    })
  }

  const problems = useMemo(() => (problem?.at ? [problem.at] : []), [problem])
  // Apply confirms the dry run on screen, so only while that is the script and parameters shown,
  // the script reads without error, and it has not been applied yet.
  const current = report !== null && reportOf === inputKey && problem === null
  const canApply = current && applied === null && report.changed > 0 && running === null
  const stale = report !== null && applied === null && !current

  return (
    <div className="policies-page" data-testid="policies-page">
      <div className="policy-toolbar">
        <select
          data-testid="policy-shipped"
          value=""
          onChange={(e) => {
            const p = shipped.find((s) => s.fileName === e.target.value)
            if (p) load(p.fileName, p.source)
          }}
        >
          <option value="">Load a shipped policy…</option>
          {shipped.map((p) => (
            <option key={p.fileName} value={p.fileName}>
              {p.fileName}
            </option>
          ))}
        </select>
        <input
          type="text"
          className="policy-path"
          data-testid="policy-path"
          placeholder="Path of a .ts or .js policy file"
          value={path}
          onChange={(e) => setPath(e.target.value)}
        />
        <button disabled={path === ''} onClick={openFile}>
          Open
        </button>
        <button disabled={path === '' || source === ''} onClick={saveFile}>
          Save
        </button>
        <label title="Read the file again when it changes on disk, and dry run it">
          <input
            type="checkbox"
            data-testid="policy-watch"
            checked={watch}
            disabled={path === ''}
            onChange={(e) => setWatch(e.target.checked)}
          />{' '}
          Watch file
        </label>
      </div>
      <div className="policy-columns">
        <div className="policy-source">
          <div className="note">
            {fileName}
            {outline && ` — ${outline.name}`}
          </div>
          <CodeEditor value={source} onChange={setSource} problems={problems} />
          {problem && (
            <p className="policy-problem" data-testid="policy-problem" role="alert">
              {problem.at ? `Line ${problem.at.line}: ` : ''}
              {problem.message}
            </p>
          )}
        </div>
        <div className="policy-side">
          {outline?.description && <p>{outline.description}</p>}
          <h3>Parameters</h3>
          <ParamForm
            params={outline?.params ?? []}
            values={values}
            onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
          />
          <div className="policy-actions">
            <button
              className={canApply || applied !== null ? undefined : 'primary'}
              data-testid="policy-dry-run"
              disabled={source.trim() === '' || running !== null}
              onClick={() => dryRun()}
            >
              {running === 'dry' ? 'Running…' : 'Dry run'}
            </button>
            <button
              className={canApply ? 'primary' : undefined}
              data-testid="policy-apply"
              disabled={!canApply}
              title={
                canApply
                  ? 'Apply the dry run shown as one change set'
                  : 'Dry run the script as it is first; Apply confirms that dry run'
              }
              onClick={apply}
            >
              Apply
            </button>
            {applied?.changeSet != null && revertedBy === null && (
              <button data-testid="policy-revert" onClick={revert}>
                Revert change set {applied.changeSet}
              </button>
            )}
          </div>
          {stale && (
            <p className="note policy-stale" data-testid="policy-stale" role="status">
              {problem
                ? 'The script has an error: this dry run is of an earlier version.'
                : 'The script or its parameters changed since this dry run: dry run again to apply.'}
            </p>
          )}
          {running === 'apply' && <WriteJobProgress />}
          {applied ? (
            <DryRunReport report={applied} applied={{ changeSet: applied.changeSet, revertedBy }} />
          ) : (
            report && <DryRunReport report={report} stale={stale} />
          )}
        </div>
      </div>
    </div>
  )
}
