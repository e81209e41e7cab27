import {
  type Node,
  type ParseError,
  findNodeAtLocation,
  getNodeValue,
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

/** Parses strict JSON; a syntax error is a problem with its line and column. */
export function parseJson(
  file: string,
  text: string,
): { doc: JsonDocument } | { problem: CrowdaqProblem } {
  const errors: ParseError[] = []
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const tree = parseTree(body, errors, { allowTrailingComma: false, disallowComments: true })
  const starts = lineStarts(body)
  const error = errors[0]
  if (error || !tree) {
    const at = position(starts, error?.offset ?? 0)
    return {
      problem: {
        file,
        ...at,
        path: '',
        message: error
          ? `not valid JSON (${printParseErrorCode(error.error)})`
          : 'empty file: expected JSON',
      },
    }
  }
  const root: Node = tree
  return {
    doc: {
      file,
      value: getNodeValue(root) as unknown,
      locate(path) {
        for (let n = path.length; n >= 0; n--) {
          const node = findNodeAtLocation(root, [...path.slice(0, n)])
          if (node)
            return position(
              starts,
              node.parent?.type === 'property' ? node.parent.offset : node.offset,
            )
        }
        return { line: 1, column: 1 }
      },
    },
  }
}
