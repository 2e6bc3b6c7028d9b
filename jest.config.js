/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/examples'],
  testMatch: ['**/*.test.ts'],
  // Transpile only: `npm test` typechecks the whole project with tsc before jest runs.
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json', diagnostics: false }] },
  testTimeout: 30000,
  // Integration tests start real agents on free ports; two workers fit a 2-core machine.
  maxWorkers: process.env.CI ? 2 : '50%',
  verbose: false,
};
