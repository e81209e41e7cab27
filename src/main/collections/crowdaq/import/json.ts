import {
  type Node,
  type ParseError,
  findNodeAtLocation,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser'
import type { CrowdaqProblem, JsonPath } from './problems'

/** A parsed JSON document that can say where any JSON path of it starts (line and column). */
export interface JsonDocument {
  file: string
  value: unknown
  /** Line and column (1-based) of the value at `path`, or of its nearest existing parent. */
  locate(path: JsonPath): { line: number; column: number }
}

function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1)
  return starts
}

function position(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if ((starts[mid] ?? 0) <= offset) lo = mid
    else hi = mid - 1
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 }
}

/**
 * Parses strict JSON; a syntax error is a problem with its line and column. The positions of
 * values are worked out only when a problem needs one (the syntax tree of a large export costs
 * more than the parse itself).
 */
export function parseJson(
  file: string,
  text: string,
): { doc: JsonDocument } | { problem: CrowdaqProblem } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  let value: unknown
  try {
    value = JSON.parse(body) as unknown
  } catch {
    const errors: ParseError[] = []
    parseTree(body, errors, { allowTrailingComma: false, disallowComments: true })
    const error = errors[0]
    const at = position(lineStarts(body), error?.offset ?? 0)
    return {
      problem: {
        file,
        ...at,
        path: '',
        message:
          body.trim() === ''
            ? 'empty file: expected JSON'
            : `not valid JSON (${error ? printParseErrorCode(error.error) : 'unexpected content'})`,
      },
    }
  }
  let tree: { root: Node | undefined; starts: number[] } | null = null
  return {
    doc: {
      file,
      value,
      locate(path) {
        tree ??= { root: parseTree(body), starts: lineStarts(body) }
        const { root, starts } = tree
        if (!root) return { line: 1, column: 1 }
        for (let n = path.length; n >= 0; n--) {
          const node = findNodeAtLocation(root, [...path.slice(0, n)])
          if (node) {
            const offset = node.parent?.type === 'property' ? node.parent.offset : node.offset
            return position(starts, offset)
          }
        }
        return { line: 1, column: 1 }
      },
    },
  }
}
