// Lets a child `node` process load our TypeScript sources directly (jest's transform only covers the
// test process): `node -r ./swc-register.js child.ts`.
const { transformSync } = require('@swc/core');
const fs = require('node:fs');

require.extensions['.ts'] = function compileTs(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
