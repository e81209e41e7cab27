import { useState } from 'react'
import { api, isDesktop } from '../../api'
import { showError, showInfo } from '../messages/messages'
import { Modal } from '../shell/Modal'
import './team.css'

interface TeamDialogProps {
  mode: 'share' | 'join'
  onClose: () => void
}

/**
 * File ▸ Share with a team… / Join a team…: the server's address and the member's name (and for
 * a join, where the new project file goes). The desktop app asks for the password and keeps it
 * with the system keychain; serve mode reads it from PGPASSWORD or ~/.pgpass.
 */
export function TeamDialog({ mode, onClose }: TeamDialogProps) {
  const [server, setServer] = useState('')
  const [name, setName] = useState('')
  const [path, setPath] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const ready = server.trim() !== '' && name.trim() !== '' && (mode === 'share' || path.trim())

  async function submit() {
    if (!ready || busy) return
    setBusy(true)
    setProblem(null)
    const secret = password === '' ? {} : { password }
    try {
      if (mode === 'share') {
        const shared = await api.team.share({ server, name, ...secret })
        showInfo(
          `Shared with the team: ${shared.submissions.toLocaleString('en-US')} submissions, ${shared.changeSets.toLocaleString('en-US')} change sets.`,
        )
      } else {
        await api.team.join({ server, name, path, ...secret })
      }
      onClose()
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }

  async function choosePath() {
    try {
      const chosen = await api.team.pickJoinPath({})
      if (chosen !== null) setPath(chosen)
    } catch (e) {
      showError('Choosing a file', e)
    }
  }

  return (
    <Modal
      title={mode === 'share' ? 'Share with a team' : 'Join a team'}
      onClose={onClose}
      testId="team-dialog"
      footer={
        <>
          <button onClick={onClose}>Cancel</button>
          <button
            className="primary"
            disabled={busy || !ready}
            data-testid="team-submit"
            onClick={() => void submit()}
          >
            {mode === 'share' ? (busy ? 'Sharing…' : 'Share') : 'Join'}
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
        <p className="team-note">
          {mode === 'share'
            ? 'Publishes this project to an empty PostgreSQL database; you become its lead.'
            : 'Makes a new project file holding the team’s collection; it opens when it is ready.'}
        </p>
        <label className="field">
          <span>Server address</span>
          <input
            type="text"
            value={server}
            autoFocus
            spellCheck={false}
            placeholder="postgres://name@host:5432/database"
            data-testid="team-server"
            onChange={(e) => setServer(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Member name (your PostgreSQL role)</span>
          <input
            type="text"
            value={name}
            spellCheck={false}
            data-testid="team-name"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        {mode === 'join' && (
          <label className="field">
            <span>New project file (.winnow is added if missing)</span>
            <span className="team-path-row">
              <input
                type="text"
                value={path}
                spellCheck={false}
                placeholder="/home/me/team.winnow"
                data-testid="team-path"
                onChange={(e) => setPath(e.target.value)}
              />
              {isDesktop && (
                <button type="button" onClick={() => void choosePath()}>
                  Choose…
                </button>
              )}
            </span>
          </label>
        )}
        {isDesktop ? (
          <label className="field">
            <span>Password (kept encrypted by the system keychain, never in the project)</span>
            <input
              type="password"
              value={password}
              autoComplete="off"
              data-testid="team-password"
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        ) : (
          <p className="team-note">
            The password comes from PGPASSWORD or a line in ~/.pgpass on the machine running Winnow.
          </p>
        )}
        {problem && (
          <div className="error-box" role="alert" data-testid="team-problem-message">
            {problem}
          </div>
        )}
      </form>
    </Modal>
  )
}
