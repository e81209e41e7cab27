import { join } from 'node:path'

export const FIXTURES = join(__dirname, '..', 'fixtures', 'crowdaq')
export const fixture = (name: string): string => join(FIXTURES, name)
