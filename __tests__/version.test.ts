// Unit tier: the version the action reports.
import { describe, it, expect } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { VERSION } from '../src/version.js'

describe('VERSION', () => {
  it('is the version in package.json, which the User-Agent reports', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(VERSION).toBe(pkg.version)
  })
})
