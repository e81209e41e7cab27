import { useState } from 'react'
import { Modal } from '../shell/Modal'

interface PathDialogProps {
  mode: 'open' | 'create'
  onSubmit: (path: string) => Promise<boolean>
  onClose: () => void
}

/** Serve mode has no native file dialogs: the project file is named by its path on the server. */
export function PathDialog({ mode, onSubmit, onClose }: PathDialogProps) {
  const [path, setPath] = useState('')
  const [busy, setBusy] = useState(false)
  const title = mode === 'open' ? 'Open project' : 'New project'

  async function submit() {
    const trimmed = path.trim()
    if (!trimmed) return
    setBusy(true)
    const ok = await onSubmit(trimmed)
    setBusy(false)
    if (ok) onClose()
  }

  return (
    <Modal
      title={title}
      onClose={onClose}
      testId="path-dialog"
      footer={
        <>
          <button onClick={onClose}>Cancel</button>
          <button
            className="primary"
            disabled={busy || !path.trim()}
            data-testid="path-submit"
            onClick={() => void submit()}
          >
            {mode === 'open' ? 'Open' : 'Create'}
          </button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <label className="field">
          <span>
            {mode === 'open'
              ? 'Path of the project file on the machine running Winnow'
              : 'Path for the new project file (.winnow is added if missing)'}
          </span>
          <input
            type="text"
            value={path}
            autoFocus
            spellCheck={false}
            placeholder={
              mode === 'open' ? '/home/me/glucose.winnow' : '/home/me/new-project.winnow'
            }
            data-testid="path-input"
            onChange={(e) => setPath(e.target.value)}
          />
        </label>
      </form>
    </Modal>
  )
}
