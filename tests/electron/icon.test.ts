import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// The window, the taskbar and packagers read the PNGs drawn from resources/icon.svg.
const resources = join(import.meta.dirname, '..', '..', 'resources')

function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(join(resources, file))
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe('the app icon', () => {
  it('comes in every size the window, the taskbar and a packager need', () => {
    const files = readdirSync(resources).filter((name) => /^icon-\d+\.png$/.test(name))
    const sizes = files.map((name) => Number(/\d+/.exec(name)?.[0])).sort((a, b) => a - b)
    expect(sizes).toEqual([16, 32, 48, 64, 128, 256, 1024])
    for (const size of sizes)
      expect(pngSize(`icon-${size}.png`)).toEqual({ width: size, height: size })
    expect(pngSize('icon.png')).toEqual({ width: 512, height: 512 })
  })
})
