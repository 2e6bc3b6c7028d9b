/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/examples'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testTimeout: 30000,
  // Integration tests start real agents on free ports; two workers fit a 2-core machine.
  maxWorkers: process.env.CI ? 2 : '50%',
  verbose: false,
};
