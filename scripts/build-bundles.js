#!/usr/bin/env node
// Bundles the bins (and the benchmark's engine command) with esbuild, each as `<name>.code.js` beside a
// stub `<name>.bundle.js` that runs it through V8's code cache (scripts/code-cache-stubs.js).
//
// Code that a command only sometimes runs is a bundle of its own, required at the point of use through
// its own stub: a bin reads, deserializes and keeps in memory only what it may run at every start. A
// lazy bundle holds its own copy of what it shares with the bin (zod, the API types), so what crosses
// between the two must not rely on class identity; the two below only hand over plain objects or
// objects made and used on one side.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');
const { writeStubs } = require('./code-cache-stubs');

const root = path.resolve(__dirname, '..');

// `dev` runs the agent for as long as it is wanted (its WebAssembly, RE2, keeps the optimising compiler);
// everything else is a short client of it. The agent's own work comes in bursts (a deploy's dry runs and
// registrations), which late tier-up serves as it serves a short command: measured on a fresh agent, a
// plan of 200 new jobs cost the agent 10-20% less CPU, and what stays hot is still optimized.
const SHORT = '{ liftoffOnly: true, lateTierUp: true }';
const CLI = "{ liftoffOnly: process.argv[2] !== 'dev', lateTierUp: true, variant: process.argv[2] }";
const BENCH_CLI = '{ liftoffOnly: true, lateTierUp: true, variant: process.argv[2] }';
const BINS = [
  { entry: 'src/cli/main.ts', out: 'src/cli/main', options: CLI },
  { entry: 'src/plugin/main-sched.ts', out: 'src/plugin/main-sched', options: SHORT },
  { entry: 'src/plugin/main-reg.ts', out: 'src/plugin/main-reg', options: SHORT },
  { entry: 'bench/engine-cli.ts', out: 'bench/engine-cli', options: BENCH_CLI },
];

/**
 * Each lazy bundle, with the `require` it replaces. A lazy bundle's stub keeps the process's V8 flags as
 * the bin set them (see CodeCacheOptions).
 */
const LAZY = [
  // The dev agent (a third of the command line): `dev`, and a deploy with no cluster address.
  {
    entry: 'src/agent/index.ts',
    out: 'src/agent/agent',
    replaces: (args) => args.path === './index' && /[/\\]src[/\\]agent[/\\]load\.ts$/.test(args.importer),
  },
  // undici's index (fetch, WebSocket, the cache, the mocks) for the http state backend and peering; the
  // transport bundles only the pool (src/api/undici.ts).
  { entry: 'undici', out: 'src/api/undici-index', replaces: (args) => args.path === 'undici' },
];

/**
 * zod's namespace re-exports every locale's messages (300 kB of the bundle); the project uses zod's
 * English default only, which zod's schemas import by themselves.
 */
const englishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[/\\]zod[/\\]v4[/\\](classic|core)[/\\]/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en-only.js'), namespace: 'zod-en' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * Node built-ins that a plan or a deploy does not use but that a library `require`s at its top: for a
 * `require` (never an `import`, which esbuild copies at once) each becomes an object that loads the
 * built-in on its first use. commander reads child_process only to run a subcommand's executable.
 */
const LAZY_BUILTINS = ['child_process'];

const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    const names = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    build.onResolve({ filter: names }, (args) =>
      args.namespace === 'lazy-builtin' || args.kind !== 'require-call'
        ? undefined
        : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: [
        'let loaded;',
        `const load = () => (loaded ??= require(${JSON.stringify(`node:${args.path}`)}));`,
        // A descriptor must be configurable: the proxy's own target never holds the property.
        'const own = (k) => { const d = Reflect.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; };',
        'module.exports = new Proxy({}, {',
        '  get: (_, k) => load()[k],',
        '  has: (_, k) => k in load(),',
        '  ownKeys: () => Reflect.ownKeys(load()),',
        '  getOwnPropertyDescriptor: (_, k) => own(k),',
        '});',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/**
 * undici's HTTP/2 client loads node:http2 (and with it TLS) at its top; the transport speaks HTTP/1.1,
 * so the client is loaded when a connection first negotiates HTTP/2.
 */
const lazyHttp2Client = {
  name: 'lazy-undici-h2',
  setup(build) {
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      /[/\\]undici[/\\]lib[/\\]dispatcher[/\\]client\.js$/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), 'client-h2.js'), namespace: 'lazy-h2' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (args) => ({
      contents: [
        'let connectH2;',
        'module.exports = function lazyConnectH2(client, socket) {',
        `  connectH2 ??= require(${JSON.stringify(args.path)});`,
        '  return connectH2(client, socket);',
        '};',
      ].join('\n'),
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

/** Replaces each lazy bundle's `require` with one of its stub, relative to the bundle being built. */
function lazyBundles(self, outFile) {
  return {
    name: 'lazy-bundles',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        const lazy = LAZY.find((l) => l !== self && args.kind === 'require-call' && l.replaces(args));
        if (lazy === undefined) return undefined;
        const stub = path.join(root, 'dist', `${lazy.out}.bundle.js`);
        const rel = path.relative(path.dirname(outFile), stub).split(path.sep).join('/');
        return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
      });
    },
  };
}

function bundle(spec) {
  const outfile = path.join(root, 'dist', `${spec.out}.code.js`);
  return esbuild.build({
    absWorkingDir: root,
    entryPoints: [spec.entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    external: ['re2-wasm', 'os-lock', 'pg-native', 'pg', 'node-forge', 'yaml', 'bcryptjs', 'picomatch'],
    legalComments: 'external',
    logLevel: 'warning',
    plugins: [englishOnly, lazyBuiltins, lazyHttp2Client, lazyBundles(spec, outfile)],
  });
}

/**
 * The plugin protos parsed once here, as protobufjs's JSON, the same Root that proto-loader's `loadSync`
 * builds (`loadProtos` in src/plugin/server.ts reads it).
 */
function writeProtoJson() {
  const { PROTO_FILES, PROTO_OPTIONS, PROTO_JSON } = require(path.join(root, 'dist/src/plugin/server.js'));
  const { loadProtosWithOptionsSync } = require('@grpc/proto-loader/build/src/util');
  const parsed = loadProtosWithOptionsSync(PROTO_FILES, PROTO_OPTIONS);
  fs.writeFileSync(PROTO_JSON, JSON.stringify(parsed.toJSON()));
}

async function main() {
  writeProtoJson();
  await Promise.all([...BINS, ...LAZY].map(bundle));
  writeStubs([...BINS, ...LAZY.map((l) => ({ out: l.out, options: '{}' }))]);
}

main().catch((err) => {
  // esbuild has printed its own errors; anything else is said here.
  if (!err.errors) process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
