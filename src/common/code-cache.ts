/**
 * Runs a built single-file bundle through V8's code cache. Node 20 compiles a 2-3 MB bundle from source
 * at every start (about a third of `cdktf-sched --version`), and the command line and the Terraform
 * plugins start for every command; Node 20 has no `module.enableCompileCache`, so the bins are stubs
 * that call this with their bundle (see scripts/code-cache-stubs.js).
 *
 * The cache lives in a per-user directory, never beside the bundle (the package may be read-only), one
 * file per bundle build, Node version and architecture. V8 checks the data itself (its version, flags
 * and the source) and rejects what does not fit; a rejected, missing or unreadable cache only means
 * compiling from source as before, and a directory that cannot be written is left alone.
 */
import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

type CjsWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: BundleModule,
  filename: string,
  dirname: string,
) => void;

/** What an esbuild CommonJS bundle uses of `module`: its exports, and identity for `require.main`. */
interface BundleModule {
  exports: unknown;
  id: string;
  filename: string;
}

/** `off` (or `0`) turns the cache off; any other value is the directory to keep it in. */
export const CODE_CACHE_ENV = 'CDKTF_SCHED_CODE_CACHE';

export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env[CODE_CACHE_ENV];
  if (given === 'off' || given === '0') return undefined;
  if (given) return given;
  const base = env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
  return path.join(base, 'cdktf-sched', 'code-cache');
}

export interface CodeCacheOptions {
  /**
   * Set by a bin, before anything is compiled; a lazy bundle (scripts/build-bundles.js) leaves it out and
   * runs under whatever its bin chose.
   *
   * Compile WebAssembly with V8's baseline compiler (Liftoff) only. undici parses every HTTP response
   * with llhttp, WebAssembly; after a few responses V8 recompiles its parser, one very large
   * function, with TurboFan on another thread, which cost a short command about a third of its CPU
   * (`plan --no-synth` of 5 jobs: 0.75-1.0 -> 0.50-0.57 s task-clock). A long-running process (the dev
   * agent, with RE2) keeps the optimising compiler.
   */
  liftoffOnly?: boolean;
  /**
   * Set by a bin, as liftoffOnly is. Optimize a JavaScript function with TurboFan only after it has run
   * four times V8's default budget of bytecode: a short command calls most of its functions a few
   * hundred times, too few to repay the optimising compiles (on the compiler's thread and the main one)
   * that the default budget starts for them (`plan` of 200 new jobs: about a fifth of its CPU; of 1,000:
   * as much). A function that stays hot is still optimized, a little later. The budget is read as the
   * code runs, not when it is compiled, so the code cache is the same with it and without.
   */
  lateTierUp?: boolean;
  /**
   * The command this run serves (the bin's first argument). A cache holds what its first run compiled,
   * so each command keeps its own: a plan run against the cache of a `--version` compiled most of the
   * engine again at every start (about a tenth of a 5-job plan's CPU), and `--version` against a plan's
   * cache deserialized the engine for nothing.
   */
  variant?: string;
}

/** A variant names a file only if it looks like a command or an option (never a path or a value). */
function variantSuffix(variant: string | undefined): string {
  const name = variant === undefined ? undefined : /^-{0,2}([a-z][a-z-]{0,31})$/.exec(variant)?.[1];
  return name === undefined ? '' : `-${name}`;
}

/** Whether this process compiles WebAssembly with Liftoff only: its bin said so (a flag is for good). */
let liftoffOnly = false;

/**
 * Whether this process has changed a V8 flag. Node compiles its built-in modules with a code cache of
 * its own, which V8 checks against the flags as it does ours: a built-in first required after a bin set
 * its flags was compiled from source (the built-ins a plan requires at its start: 28 ms against 9.5 ms).
 */
let flagsChanged = false;

/** V8's default --interrupt-budget (Node 20), times four: see CodeCacheOptions.lateTierUp. */
const LATE_INTERRUPT_BUDGET = 4 * 67_584;
let lateTierUp = false;

/**
 * Sets this process's V8 flag for CodeCacheOptions.lateTierUp (once). Exported for the benchmarks,
 * whose in-process dev agent must run as `cdktf-sched dev` does.
 */
export function useLateTierUp(): void {
  if (lateTierUp) return;
  v8.setFlagsFromString(`--interrupt-budget=${LATE_INTERRUPT_BUDGET}`);
  lateTierUp = true;
  flagsChanged = true;
}

/**
 * The cache file of one bundle build on this Node (V8 rejects data from another version anyway). V8
 * also rejects data made under other flags, so a run with Liftoff only keeps a file of its own.
 */
export function codeCacheFile(
  dir: string,
  bundle: string,
  buildHash: string,
  opts: CodeCacheOptions = {},
): string {
  const flags = opts.liftoffOnly ? '-liftoff' : '';
  return path.join(
    dir,
    `${path.basename(bundle, '.js')}-${buildHash}-${process.version}-${process.arch}${flags}${variantSuffix(opts.variant)}.v8`,
  );
}

/**
 * A cache file: a header line, a line naming the built-ins the bundle required as it loaded in the run
 * that wrote the file (comma separated), then V8's data. A file without the header is all V8 data, which
 * V8 then rejects. Only what the bundle's top level requires is named, the same at every run: a
 * built-in a command loads later, on some runs only (`child_process` for a synth, TLS for an https
 * address), stays unloaded until used. So a bin starts its work after its top level (cli/main.ts):
 * what a command required at once would otherwise be named for every later run of it.
 */
interface CacheFile {
  builtins: string[];
  data: Buffer;
}

const CACHE_HEADER = 'cdktf-sched code cache 1\n';
const NEWLINE = 0x0a;

function parseCache(bytes: Buffer): CacheFile {
  const header = Buffer.byteLength(CACHE_HEADER);
  if (bytes.toString('latin1', 0, header) !== CACHE_HEADER) return { builtins: [], data: bytes };
  const end = bytes.indexOf(NEWLINE, header);
  if (end < 0) return { builtins: [], data: bytes };
  const names = bytes.toString('latin1', header, end);
  return { builtins: names === '' ? [] : names.split(','), data: bytes.subarray(end + 1) };
}

function readCache(file: string | undefined): CacheFile | undefined {
  if (file === undefined) return undefined;
  try {
    return parseCache(fs.readFileSync(file));
  } catch {
    return undefined;
  }
}

/**
 * Requires each built-in a cache names, before any V8 flag changes (see flagsChanged). A name this Node
 * does not know, or a built-in that fails to load, is left to the bundle, as without a cache.
 */
function requireBuiltins(names: readonly string[]): void {
  for (const name of names) {
    if (!isBuiltin(name)) continue;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(name);
    } catch {
      // The bundle meets the same failure where it needs the module, as it would have.
    }
  }
}

/** Written whole or not at all: another process may be reading or writing the same file. */
function writeCache(file: string, builtins: Iterable<string>, data: Buffer): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const head = Buffer.from(`${CACHE_HEADER}${[...builtins].join(',')}\n`, 'latin1');
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, Buffer.concat([head, data]));
    fs.renameSync(tmp, file);
  } catch {
    // A cache is an optimisation: a read-only or full disk only costs the next start its compile.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // Nothing was written where nothing can be.
    }
  }
}

/**
 * The build keeps the bundles ASCII (test/e2e/cli/bundle.test.ts); ASCII read as latin1 is the same
 * text, decoded without Node 20's UTF-8 validation (tens of ms for 2.6 MB here).
 */
function readSource(file: string): string {
  const bytes = fs.readFileSync(file);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * Late, so that the cache also holds the functions the run compiled lazily, not only the top level:
 * at exit, or after a second for a process that is still serving then (a plugin Terraform may end
 * with a signal, the dev agent), whichever comes first.
 */
function scheduleWrite(cacheFile: string, builtins: Iterable<string>, script: vm.Script): void {
  let written = false;
  const write = (): void => {
    if (written) return;
    written = true;
    writeCache(cacheFile, builtins, script.createCachedData());
  };
  process.once('exit', write);
  setTimeout(write, 1000).unref();
}

/** The bundle's `require`, and the built-ins its top level required by name (see CacheFile). */
interface BundleRequire {
  require: NodeJS.Require;
  builtinsAtLoad: Set<string>;
  /** Called once the bundle's top level has run. */
  loaded(): void;
}

/** The `require` Node would give a module at the bundle's path, noting built-ins until `loaded()`. */
function bundleRequireFor(bundle: string, main: NodeJS.Module | undefined): BundleRequire {
  const base = createRequire(bundle);
  const builtinsAtLoad = new Set<string>();
  let loading = true;
  const noting = ((id: string): unknown => {
    if (loading && isBuiltin(id)) builtinsAtLoad.add(id);
    return base(id);
  }) as NodeJS.Require;
  noting.resolve = base.resolve;
  noting.cache = base.cache;
  noting.extensions = base.extensions;
  noting.main = main;
  return { require: noting, builtinsAtLoad, loaded: () => (loading = false) };
}

function compile(file: string, cachedData: Buffer | undefined): vm.Script {
  // The bundle's shebang becomes a comment so the line numbers in stack traces stay the bundle's.
  const source = readSource(file).replace(/^#!/, '//');
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  return new vm.Script(wrapped, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
}

/**
 * Runs `bundle` as the module `stub` (the bin that was started or required): the bundle sees itself
 * as the main module exactly when the stub is, and its exports become the stub's.
 */
export function runWithCodeCache(
  stub: NodeJS.Module,
  bundle: string,
  buildHash: string,
  opts: CodeCacheOptions = {},
): void {
  const dir = codeCacheDir();
  const cacheFile =
    dir === undefined
      ? undefined
      : codeCacheFile(dir, bundle, buildHash, {
          liftoffOnly: liftoffOnly || opts.liftoffOnly === true,
          ...(opts.variant === undefined ? {} : { variant: opts.variant }),
        });
  const cached = readCache(cacheFile);
  if (cached !== undefined && !flagsChanged) requireBuiltins(cached.builtins);
  // Before compiling: V8 checks a cache against the flags it was compiled under.
  if (opts.liftoffOnly && !liftoffOnly) {
    v8.setFlagsFromString('--liftoff-only');
    liftoffOnly = true;
    flagsChanged = true;
  }
  if (opts.lateTierUp) useLateTierUp();
  const script = compile(bundle, cached?.data);
  const module: BundleModule = { exports: {}, id: stub.id, filename: bundle };
  // `require.main` is the process's main module: the stub, when the stub was started.
  const main = require.main === stub ? (module as unknown as NodeJS.Module) : require.main;
  const bundleRequire = bundleRequireFor(bundle, main);
  const run = script.runInThisContext() as CjsWrapper;
  run.call(module.exports, module.exports, bundleRequire.require, module, bundle, path.dirname(bundle));
  bundleRequire.loaded();
  stub.exports = module.exports;
  if (cacheFile !== undefined && (cached === undefined || script.cachedDataRejected === true)) {
    scheduleWrite(cacheFile, bundleRequire.builtinsAtLoad, script);
  }
}
