import { useEffect, useState } from 'react'
import type { ReleaseResult } from '../../../../shared/contract/release'
import { HALIE_TASKS, type HalieTask } from '../../../../shared/halie/tasks'
import { api } from '../../api'
import { ReleaseFiles } from '../release/ReleaseFiles'
import { useStore } from '../../lib/store'
import { toErrorInfo } from '../../lib/errors'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'

function defaultFolder(projectPath: string, task: string): string {
  const cut = Math.max(projectPath.lastIndexOf('/'), projectPath.lastIndexOf('\\'))
  const name = projectPath.slice(cut + 1).replace(/\.winnow$/, '')
  return `${projectPath.slice(0, cut + 1)}${name}-halie-${task}-release`
}

/**
 * Release ▸ a HALIE task: its tables per tier (the tier map of Release ▸ Tiers), rows as
 * imported, with the datasheet, card, Croissant and manifest of every release.
 */
export function ReleasePanel({ tasks }: { tasks: readonly HalieTask[] }) {
  const project = useStore(projectState).project
  const [task, setTask] = useState<HalieTask>(tasks[0] ?? HALIE_TASKS[0])
  const [mapped, setMapped] = useState<number[]>([])
  const [tiers, setTiers] = useState<number[]>([])
  const [outText, setOut] = useState<string | null>(null)
  const [force, setForce] = useState(false)
  const [draft, setDraft] = useState(false)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<ReleaseResult | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    api.release
      .settings({})
      .then((s) => {
        const list = [...new Set(s.tierMap.map((t) => t.tier))].sort((a, b) => b - a)
        setMapped(list)
        setTiers(list)
      })
      .catch((e: unknown) => showError('Reading the release settings', e))
  }, [])

  if (!project) return null
  const out = outText ?? defaultFolder(project.path, task)

  async function start() {
    setBusy(true)
    setResult(null)
    setFailure(null)
    try {
      setResult(await api.halie.release({ task, tiers, out: out.trim(), force, draft }))
    } catch (e) {
      setFailure(toErrorInfo(e).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="halie-release" data-testid="halie-release">
      <div className="field-row">
        <label className="field">
          <span>Task</span>
          <select
            data-testid="halie-release-task"
            value={task}
            onChange={(e) => setTask(e.target.value as HalieTask)}
          >
            {tasks.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="field">
          <legend>Tiers</legend>
          {mapped.map((t) => (
            <label key={t} className="check">
              <input
                type="checkbox"
                data-testid={`halie-release-tier-${t}`}
                checked={tiers.includes(t)}
                onChange={(e) =>
                  setTiers(e.target.checked ? [...tiers, t] : tiers.filter((x) => x !== t))
                }
              />
              {t}
            </label>
          ))}
        </fieldset>
        <label className="check">
          <input
            type="checkbox"
            data-testid="halie-release-draft"
            checked={draft}
            onChange={(e) => setDraft(e.target.checked)}
          />
          Draft (not for publication)
        </label>
      </div>
      <p className="note">
        Each tier gets the task’s event_blocks.csv, survey_responses.csv (and crossword’s
        accuracies.csv) with the rows of that tier exactly as imported: an event block by its own
        rating, else its session’s; a survey or accuracy row by its session’s, else its worker’s.
      </p>
      <div className="field-row">
        <label className="field release-out">
          <span>Release folder</span>
          <input
            data-testid="halie-release-out"
            value={out}
            spellCheck={false}
            onChange={(e) => setOut(e.target.value)}
          />
        </label>
        <label className="check">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
          Replace an earlier release
        </label>
        <button
          className="primary"
          data-testid="halie-release-export"
          disabled={busy || tiers.length === 0 || !out.trim()}
          onClick={() => void start()}
        >
          Export
        </button>
      </div>
      {failure && (
        <p className="error-box" data-testid="halie-release-error">
          {failure}
        </p>
      )}
      {result && <ReleaseFiles out={result.out} files={result.files} testId="halie-release-done" />}
    </section>
  )
}
