import type { Bridge, CallName, EventName } from '../../../shared/contract'
import { ApiError, type Outcome } from '../../../shared/contract/errors'
import type { PickedFile } from '../../../shared/contract/imports'

/**
 * Serve mode: the same calls over HTTP on 127.0.0.1. The per-run token arrives in the URL
 * fragment (never sent to the server in the address, never in logs) and travels in a header.
 */
export function httpBridge(token: string): Bridge & { upload(file: File): Promise<PickedFile> } {
  const headers = { 'content-type': 'application/json', 'x-winnow-token': token }
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>()
  let streaming = false

  async function invoke(name: CallName, args: unknown): Promise<Outcome<unknown>> {
    try {
      const response = await fetch(`/api/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(args ?? {}),
      })
      return (await response.json()) as Outcome<unknown>
    } catch (error) {
      return {
        ok: false,
        error: {
          type: 'internal',
          code: 'network',
          message: `Winnow is not answering: ${String(error)}`,
        },
      }
    }
  }

  async function stream(): Promise<void> {
    // Server-sent events over fetch so the token stays in a header; reconnects after a drop.
    for (;;) {
      try {
        const response = await fetch('/events', { headers })
        if (!response.body) throw new Error('no event stream')
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
        let buffer = ''
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          let end: number
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const chunk = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            const data = chunk.split('\n').find((l) => l.startsWith('data: '))
            if (!data) continue
            const { name, payload } = JSON.parse(data.slice(6)) as {
              name: EventName
              payload: unknown
            }
            listeners.get(name)?.forEach((listener) => listener(payload))
          }
        }
      } catch {
        // fall through to the retry below
      }
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }

  return {
    invoke,
    on(name, listener) {
      if (!streaming) {
        streaming = true
        void stream()
      }
      let set = listeners.get(name)
      if (!set) listeners.set(name, (set = new Set()))
      set.add(listener)
      return () => set.delete(listener)
    },
    async upload(file: File): Promise<PickedFile> {
      const response = await fetch(`/upload?name=${encodeURIComponent(file.name)}`, {
        method: 'POST',
        headers: { 'x-winnow-token': token, 'content-type': 'application/octet-stream' },
        body: file,
      })
      const outcome = (await response.json()) as Outcome<PickedFile>
      if (!outcome.ok) throw new ApiError(outcome.error)
      return outcome.value
    },
  }
}
