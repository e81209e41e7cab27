import { useState } from 'react'
import { api, fileFromPage } from '../../api'
import { whenFinished } from '../jobs/jobs'
import { showError, showInfo } from '../messages/messages'

/**
 * Imports a HALIE data folder (its task folders, their tables and logs) as one job on the import
 * thread: each file goes with its path inside the folder, which says what it is.
 */
export function ImportFolderButton({ onImported }: { onImported: () => void }) {
  const [busy, setBusy] = useState(false)

  async function start(list: FileList | null): Promise<void> {
    const files = Array.from(list ?? [])
    if (files.length === 0) return
    setBusy(true)
    try {
      const picked: {
        ref: NonNullable<Awaited<ReturnType<typeof fileFromPage>>>['ref']
        relPath: string
      }[] = []
      for (const file of files) {
        const p = await fileFromPage(file)
        if (p) picked.push({ ref: p.ref, relPath: file.webkitRelativePath || file.name })
      }
      const { jobId } = await api.halie.import({ files: picked })
      const job = await whenFinished(jobId)
      if (job.state === 'succeeded') showInfo(job.detail)
      else if (job.state === 'failed' && job.error) showError('Importing HALIE data', job.error)
      else if (job.state === 'cancelled') showInfo('Import cancelled; nothing was imported.')
      onImported()
    } catch (e) {
      showError('Importing HALIE data', e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <label className="button small" aria-disabled={busy}>
      {busy ? 'Importing…' : 'Import HALIE folder…'}
      <input
        type="file"
        multiple
        hidden
        disabled={busy}
        data-testid="halie-import-input"
        // A folder: every file under it, each with its path inside it.
        {...{ webkitdirectory: '' }}
        onChange={(e) => {
          void start(e.target.files)
          e.target.value = ''
        }}
      />
    </label>
  )
}
