import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const src = join(import.meta.dirname, '..', '..', 'src')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  )
}

/** Names of the interfaces and type aliases a file declares, exported or not. */
function declared(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^(?:export\s+)?(?:interface|type)\s+([A-Z]\w*)/gm)].map(
    (m) => m[1] ?? '',
  )
}

describe('the contract', () => {
  // A result type crosses from main to the page and the command line: one declaration, in the
  // contract, or the two drift apart.
  it('declares each of its types once: main, the page and shared logic use them, never copy them', () => {
    // The contract is shared/contract/ and each collection's part, shared/<kind>/contract.ts.
    const contract = join(src, 'shared', 'contract')
    const inContract = (file: string): boolean =>
      file.startsWith(contract) || /shared[\\/]\w+[\\/]contract\.ts$/.test(file)
    const names = new Set(sources(src).filter(inContract).flatMap(declared))
    const copies = sources(src)
      .filter((file) => !inContract(file))
      .flatMap((file) =>
        declared(file)
          .filter((name) => names.has(name))
          .map((name) => `${relative(src, file)}: ${name}`),
      )
    expect(names.size).toBeGreaterThan(50)
    expect(copies).toEqual([])
  })
})
