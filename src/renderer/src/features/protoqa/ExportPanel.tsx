import { useEffect, useMemo, useState } from 'react'
import type { ProtoqaExportView } from '../../../../shared/protoqa/contract'
import { api } from '../../api'
import { showError } from '../messages/messages'
import { plural } from '../../lib/format'

/** The ProtoQA JSONL of the final clusterings and the datasheet, to read and to save. */
export function ExportPanel() {
  const [view, setView] = useState<ProtoqaExportView | null>(null)
  useEffect(() => {
    api.protoqa
      .export({})
      .then(setView)
      .catch((e: unknown) => showError('Exporting ProtoQA', e))
  }, [])
  const urls = useMemo(
    () =>
      view && {
        jsonl: URL.createObjectURL(new Blob([view.jsonl], { type: 'application/jsonl' })),
        datasheet: URL.createObjectURL(new Blob([view.datasheet], { type: 'text/markdown' })),
      },
    [view],
  )
  useEffect(
    () => () => {
      if (!urls) return
      URL.revokeObjectURL(urls.jsonl)
      URL.revokeObjectURL(urls.datasheet)
    },
    [urls],
  )
  if (!view) return null
  return (
    <div className="protoqa-export" data-testid="export-panel">
      <p data-testid="export-summary">
        {plural(view.questions, 'question')} with a final clustering
        {view.unclustered.length > 0 &&
          `; left out (no final clustering): ${view.unclustered.join(', ')}`}
      </p>
      {view.belowSelection.length > 0 && (
        <p className="protoqa-warn">
          8 largest clusters below 85 answers:{' '}
          {view.belowSelection.map((b) => `${b.question} (${b.topAnswers})`).join(', ')}
        </p>
      )}
      {urls && (
        <div className="protoqa-actions">
          <a
            className="protoqa-link"
            href={urls.jsonl}
            download="protoqa.jsonl"
            data-testid="export-jsonl"
          >
            Save protoqa.jsonl
          </a>
          <a className="protoqa-link" href={urls.datasheet} download="datasheet.md">
            Save datasheet.md
          </a>
        </div>
      )}
      <h4>Datasheet</h4>
      <pre className="protoqa-pre" data-testid="export-datasheet">
        {view.datasheet}
      </pre>
      <h4>ProtoQA JSONL</h4>
      <pre className="protoqa-pre" data-testid="export-preview">
        {view.jsonl}
      </pre>
    </div>
  )
}
