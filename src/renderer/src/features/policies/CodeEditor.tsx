import { javascript } from '@codemirror/lang-javascript'
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint'
import { EditorView, basicSetup } from 'codemirror'
import { useEffect, useRef } from 'react'
import { useLatest } from '../../lib/useLatest'

export interface EditorProblem {
  line: number
  column?: number
  message: string
}

/**
 * The policy editor: CodeMirror 6 with TypeScript highlighting, and the script's problems marked
 * at their line. The text is the caller's; edits come back through `onChange`.
 */
export function CodeEditor({
  value,
  onChange,
  problems,
}: {
  value: string
  onChange: (text: string) => void
  problems: readonly EditorProblem[]
}) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const changed = useLatest(onChange)

  useEffect(() => {
    if (!host.current) return
    const editor = new EditorView({
      doc: value,
      parent: host.current,
      extensions: [
        basicSetup,
        javascript({ typescript: true }),
        lintGutter(),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) changed.current(update.state.doc.toString())
        }),
      ],
    })
    view.current = editor
    return () => {
      editor.destroy()
      view.current = null
    }
    // The editor is created once; later values arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    const editor = view.current
    if (!editor || editor.state.doc.toString() === value) return
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } })
  }, [value])

  useEffect(() => {
    const editor = view.current
    if (!editor) return
    const doc = editor.state.doc
    const diagnostics: Diagnostic[] = problems
      .filter((p) => p.line >= 1 && p.line <= doc.lines)
      .map((p) => {
        const line = doc.line(p.line)
        const from = Math.min(line.from + Math.max((p.column ?? 1) - 1, 0), line.to)
        return { from, to: line.to, severity: 'error', message: p.message }
      })
    editor.dispatch(setDiagnostics(editor.state, diagnostics))
  }, [problems, value])

  return <div className="policy-editor" data-testid="policy-editor" ref={host} />
}
