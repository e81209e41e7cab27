import { useEffect, useRef, useState } from 'react'
import type { ApiErrorInfo } from '../../../../shared/contract'
import type { FileRef } from '../../../../shared/contract/imports'
import type { MTurkFieldMapping } from '../../../../shared/contract/mturk'
import { api, fileFromPage, isDesktop } from '../../api'
import { errorParts, toErrorInfo } from '../../lib/errors'
import { ErrorText } from '../messages/Messages'
import { showError } from '../messages/messages'
import { plural } from '../../lib/format'

/**
 * Which form field fills which release column, for HITs of another layout: a JSON mapping file
 * chosen here (native dialog in the desktop app, an upload in serve mode), checked by main and
 * remembered for the project's pulls. A file with problems is refused, naming its fields.
 */
export function FieldMappingField({ disabled }: { disabled: boolean }) {
  const [mapping, setMapping] = useState<MTurkFieldMapping | null | undefined>(undefined)
  const [error, setError] = useState<ApiErrorInfo | null>(null)
  const [busy, setBusy] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => {
    let live = true
    api.mturk
      .fieldMapping({})
      .then((m) => live && setMapping(m))
      .catch((e: unknown) => live && showError('Reading the field mapping', e))
    return () => {
      live = false
    }
  }, [])

  async function remember(file: FileRef | null) {
    setBusy(true)
    setError(null)
    try {
      setMapping(await api.mturk.setFieldMapping({ file }))
    } catch (e) {
      setError(toErrorInfo(e))
    } finally {
      setBusy(false)
    }
  }

  async function choose() {
    if (!isDesktop) {
      input.current?.click()
      return
    }
    try {
      const picked = await api.mturk.pickFieldMapping({})
      if (picked) await remember(picked.ref)
    } catch (e) {
      setError(toErrorInfo(e))
    }
  }

  return (
    <div className="mturk-mapping" data-testid="mturk-mapping">
      <div className="mturk-buttons">
        <span>
          Form fields:{' '}
          <span data-testid="mturk-mapping-name">
            {mapping === undefined
              ? '…'
              : mapping
                ? `${mapping.name} (${plural(mapping.fields.length, 'field')} mapped)`
                : 'named like the release columns (GLUCOSE HITs)'}
          </span>
        </span>
        <button
          className="small"
          data-testid="mturk-mapping-choose"
          disabled={disabled || busy}
          title='A JSON file {"form field": "release column", …} for HITs whose fields are named otherwise'
          onClick={() => void choose()}
        >
          Choose mapping file…
        </button>
        {mapping && (
          <button
            className="small"
            data-testid="mturk-mapping-clear"
            disabled={disabled || busy}
            onClick={() => void remember(null)}
          >
            Use the column names
          </button>
        )}
      </div>
      {mapping && (
        <details className="note">
          <summary>Which field fills which column</summary>
          <ul className="mturk-mapping-list" data-testid="mturk-mapping-fields">
            {mapping.fields.map((f) => (
              <li key={f.field}>
                <span className="mono">{f.field}</span> → <span className="mono">{f.column}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <input
        ref={input}
        type="file"
        className="hidden"
        accept=".json,application/json"
        data-testid="mturk-mapping-input"
        aria-label="Choose a field mapping file"
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          if (!file) return
          setBusy(true)
          fileFromPage(file)
            .then((picked) => (picked ? remember(picked.ref) : undefined))
            .catch((err: unknown) => setError(toErrorInfo(err)))
            .finally(() => setBusy(false))
        }}
      />
      {error && (
        <div className="error-box" role="alert" data-testid="mturk-mapping-error">
          <ErrorText {...errorParts(error)} />
        </div>
      )}
    </div>
  )
}
