import { useCallback, useEffect, useState } from 'react'
import type { ApiErrorInfo } from '../../../../shared/contract'
import type {
  MTurkBalance,
  MTurkConnectionTest,
  MTurkEndpointKind,
  MTurkSettings,
} from '../../../../shared/contract/mturk'
import { api } from '../../api'
import { errorParts, toErrorInfo } from '../../lib/errors'
import { useLatest } from '../../lib/useLatest'
import { ErrorText } from '../messages/Messages'
import { showInfo } from '../messages/messages'
import { formatBalance } from './mturkState'

const ENDPOINTS: { value: MTurkEndpointKind; label: string }[] = [
  { value: 'sandbox', label: 'Sandbox (test HITs, no money)' },
  { value: 'production', label: 'Production (real HITs and payments)' },
  { value: 'custom', label: 'Custom endpoint (e.g. the local stand-in)' },
]

/**
 * Endpoint and access key. The key pair is typed once and sent to main, which keeps it where this
 * mode keeps secrets; the page only ever sees where it comes from and its last four characters.
 */
export function ConnectionSection({ onSettings }: { onSettings?: (s: MTurkSettings) => void }) {
  const [settings, setSettings] = useState<MTurkSettings | null>(null)
  const [endpoint, setEndpoint] = useState<MTurkEndpointKind>('sandbox')
  const [customUrl, setCustomUrl] = useState('')
  const [accessKey, setAccessKey] = useState('')
  const [secretKey, setSecretKey] = useState('')
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<ApiErrorInfo | null>(null)
  const [test, setTest] = useState<MTurkConnectionTest | null>(null)
  const [balance, setBalance] = useState<MTurkBalance | null>(null)

  const onSettingsRef = useLatest(onSettings)
  const adopt = useCallback(
    (s: MTurkSettings) => {
      setSettings(s)
      setEndpoint(s.endpoint)
      setCustomUrl(s.customUrl ?? '')
      onSettingsRef.current?.(s)
    },
    [onSettingsRef],
  )

  useEffect(() => {
    let live = true
    api.mturk
      .settings({})
      .then((s) => {
        if (!live) return
        adopt(s)
        if (s.credentials.set) {
          api.mturk
            .balance({})
            .then((b) => live && setBalance(b))
            .catch(() => undefined) // the test button says why, when asked
        }
      })
      .catch((e: unknown) => live && setError(toErrorInfo(e)))
    return () => {
      live = false
    }
  }, [adopt])

  const keysTyped = accessKey.trim() !== '' || secretKey.trim() !== ''
  const keysComplete = accessKey.trim() !== '' && secretKey.trim() !== ''
  const dirty =
    settings !== null &&
    (endpoint !== settings.endpoint ||
      (endpoint === 'custom' && customUrl.trim() !== (settings.customUrl ?? '')) ||
      keysTyped)

  async function save() {
    setBusy('Saving…')
    setError(null)
    setTest(null)
    try {
      let next = await api.mturk.saveSettings({
        endpoint,
        ...(endpoint === 'custom' ? { customUrl } : {}),
      })
      if (keysComplete) {
        next = await api.mturk.setCredentials({
          accessKeyId: accessKey.trim(),
          secretAccessKey: secretKey.trim(),
        })
        // The secret leaves the page for good: the fields are emptied at once.
        setAccessKey('')
        setSecretKey('')
      }
      adopt(next)
      showInfo('Mechanical Turk settings saved.')
    } catch (e) {
      setError(toErrorInfo(e))
    } finally {
      setBusy(null)
    }
  }

  async function forget() {
    setBusy('Forgetting the key…')
    setError(null)
    try {
      adopt(await api.mturk.clearCredentials({}))
      setBalance(null)
      setTest(null)
    } catch (e) {
      setError(toErrorInfo(e))
    } finally {
      setBusy(null)
    }
  }

  async function runTest() {
    setBusy('Testing the connection…')
    setError(null)
    try {
      const result = await api.mturk.test({})
      setTest(result)
      setBalance(result.balance)
    } catch (e) {
      setError(toErrorInfo(e))
    } finally {
      setBusy(null)
    }
  }

  const credentials = settings?.credentials
  // Nothing is edited before the stored settings are shown: they would replace the edit.
  const loading = settings === null
  return (
    <section className="mturk-section" aria-label="Connection">
      <h3 className="mturk-heading">Connection</h3>
      <div className="field-row">
        <label className="field">
          <span>Endpoint</span>
          <select
            data-testid="mturk-endpoint"
            value={endpoint}
            disabled={loading}
            onChange={(e) => setEndpoint(e.target.value as MTurkEndpointKind)}
          >
            {ENDPOINTS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        {endpoint === 'custom' && (
          <label className="field mturk-grow">
            <span>Endpoint URL</span>
            <input
              data-testid="mturk-endpoint-url"
              value={customUrl}
              disabled={loading}
              placeholder="http://127.0.0.1:4466"
              spellCheck={false}
              onChange={(e) => setCustomUrl(e.target.value)}
            />
          </label>
        )}
      </div>
      {endpoint === 'production' && (
        <p className="note warn-text">
          Production spends real money: bonuses and approvals are paid from this account.
        </p>
      )}
      <p className="note" data-testid="mturk-credentials-source">
        Access key: {credentials ? credentials.label : '…'}
        {credentials?.accessKeyHint && <span className="mono"> {credentials.accessKeyHint}</span>}
      </p>
      {credentials?.editable !== false && (
        <div className="field-row">
          <label className="field mturk-grow">
            <span>Access key id</span>
            <input
              data-testid="mturk-access-key"
              value={accessKey}
              disabled={loading}
              autoComplete="off"
              spellCheck={false}
              placeholder={credentials?.set ? 'unchanged' : 'AKIA…'}
              onChange={(e) => setAccessKey(e.target.value)}
            />
          </label>
          <label className="field mturk-grow">
            <span>Secret access key</span>
            <input
              type="password"
              data-testid="mturk-secret-key"
              value={secretKey}
              disabled={loading}
              autoComplete="new-password"
              placeholder={credentials?.set ? 'unchanged' : ''}
              onChange={(e) => setSecretKey(e.target.value)}
            />
          </label>
        </div>
      )}
      {keysTyped && !keysComplete && (
        <p className="field-error">Enter both the access key id and the secret.</p>
      )}
      <div className="mturk-buttons">
        <button
          className="primary"
          data-testid="mturk-save"
          disabled={!dirty || busy !== null || (keysTyped && !keysComplete)}
          onClick={() => void save()}
        >
          Save
        </button>
        <button
          data-testid="mturk-test"
          disabled={busy !== null || dirty}
          onClick={() => void runTest()}
        >
          Test connection
        </button>
        {credentials?.editable &&
          credentials.source !== 'environment' &&
          credentials.source !== 'profile' &&
          credentials.set && (
            <button
              data-testid="mturk-clear-key"
              disabled={busy !== null}
              onClick={() => void forget()}
            >
              Forget key
            </button>
          )}
        <span className="mturk-balance" data-testid="mturk-balance">
          {balance ? `Balance: ${formatBalance(balance)}` : ''}
        </span>
      </div>
      {busy && <p className="note busy">{busy}</p>}
      {test && (
        <p
          className={`mturk-test ${test.ok ? 'mturk-ok' : 'mturk-failed'}`}
          role="status"
          data-testid="mturk-test-result"
          data-ok={test.ok}
        >
          {test.ok ? '✓ ' : '✗ '}
          {test.message}
        </p>
      )}
      {error && (
        <div className="error-box" role="alert" data-testid="error-message">
          <ErrorText {...errorParts(error)} />
        </div>
      )}
    </section>
  )
}
