import { useRef, useState } from 'react'
import type { PickedFile } from '../../../../shared/contract/imports'
import { api, fileFromPage, isDesktop } from '../../api'
import { whenFinished } from '../jobs/jobs'
import { showError, showInfo } from '../messages/messages'

/**
 * Imports ProtoQA files (questions JSONL, raw answer lists, predictions) as one job on the import
 * thread; its progress and cancel are in the job tray.
 */
export function ImportButton({ onImported }: { onImported: () => void }) {
  const input = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState(false)

  async function start(picked: PickedFile[]): Promise<void> {
    if (picked.length === 0) return
    setBusy(true)
    try {
      const { jobId } = await api.protoqa.import({ files: picked.map((p) => ({ ref: p.ref })) })
      const job = await whenFinished(jobId)
      if (job.state === 'succeeded') showInfo(job.detail)
      else if (job.state === 'failed' && job.error) showError('Importing ProtoQA files', job.error)
      else if (job.state === 'cancelled') showInfo('Import cancelled; nothing was imported.')
      onImported()
    } catch (e) {
      showError('Importing ProtoQA files', e)
    } finally {
      setBusy(false)
    }
  }

  async function fromPage(files: FileList | null): Promise<void> {
    const picked: PickedFile[] = []
    try {
      for (const file of Array.from(files ?? [])) {
        const p = await fileFromPage(file)
        if (p) picked.push(p)
      }
    } catch (e) {
      showError('Reading the files', e)
      return
    }
    await start(picked)
  }

  return (
    <>
      <button
        className="small"
        disabled={busy}
        data-testid="protoqa-import"
        onClick={() => {
          if (isDesktop) void api.import.pickFiles({}).then(start)
          else input.current?.click()
        }}
      >
        {busy ? 'Importing…' : 'Import ProtoQA files…'}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept=".jsonl,.json,.csv"
        data-testid="protoqa-import-input"
        onChange={(e) => {
          void fromPage(e.target.files)
          e.target.value = ''
        }}
      />
    </>
  )
}
