/**
 * Path and file functions. Relative paths resolve against the function context's base directory:
 * Terraform resolves them against its working directory, which for a cdktf stack is
 * `cdktf.out/stacks/<stack>` (where cdktf copies assets), so `file("assets/x")` reads the same file
 * under both.
 */
import { readFileSync, readdirSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { lazyModule } from '../../common/lazy-module';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const picomatch = lazyModule(() => require('picomatch') as typeof import('picomatch'));
import { isObjectValue } from '../expressions/values';
import { argStr } from './args';
import { digest } from './crypto';
import { fixed, FunctionError, type FunctionContext, type FunctionTable } from './registry';

/** Go's filepath.Clean on a slash-separated path. */
function clean(p: string): string {
  if (p === '') return '.';
  const out = path.posix.normalize(p);
  return out.length > 1 && out.endsWith('/') ? out.slice(0, -1) : out;
}

function basename(p: string): string {
  if (p === '') return '.';
  const trimmed = p.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  return clean(i < 0 ? '' : p.slice(0, i + 1));
}

/** `~` and `~/...` become the home directory; `~user` is refused, as go-homedir does. */
function pathexpand(p: string): string {
  if (!p.startsWith('~')) return p;
  if (p.length > 1 && p[1] !== '/' && p[1] !== '\\')
    throw new FunctionError('cannot expand user-specific home dir');
  return homedir() + p.slice(1);
}

function resolved(ctx: FunctionContext, p: string): string {
  return path.resolve(ctx.baseDir, pathexpand(p));
}

function missing(p: string): FunctionError {
  return new FunctionError(
    `no file exists at "${p}"; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource`,
    0,
  );
}

/** A file's bytes, with Terraform's messages for the ways that fails. */
function readBytes(ctx: FunctionContext, p: string): Buffer {
  const file = resolved(ctx, p);
  let st: Stats;
  try {
    st = statSync(file);
  } catch {
    throw missing(p);
  }
  if (st.isDirectory()) throw new FunctionError(`failed to read file: read ${p}: is a directory`, 0);
  return readFileSync(file);
}

function readText(ctx: FunctionContext, p: string): string {
  const bytes = readBytes(ctx, p);
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    throw new FunctionError(
      `contents of "${p}" are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead`,
    );
  }
  return text;
}

function fileexists(ctx: FunctionContext, p: string): boolean {
  let st: Stats;
  try {
    st = statSync(resolved(ctx, p));
  } catch {
    return false;
  }
  if (st.isFile()) return true;
  throw new FunctionError(
    st.isDirectory() ? `"${p}" is a directory, not a file` : `"${p}" is not a regular file`,
  );
}

/** Every regular file under `dir`, as slash-separated paths relative to it. */
function walk(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(path.join(dir, e.name), rel));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

/**
 * `fileset(path, pattern)`: regular files under `path` matching a doublestar pattern, relative to
 * `path`, sorted. Dot files match `*` as they do in Go's doublestar.
 */
function fileset(ctx: FunctionContext, dir: string, pattern: string): string[] {
  const root = resolved(ctx, dir);
  let isMatch: (s: string) => boolean;
  try {
    isMatch = picomatch()(clean(pattern), { dot: true, strictBrackets: true });
  } catch (e) {
    throw new FunctionError(`failed to glob pattern "${pattern}": ${(e as Error).message}`, 1);
  }
  let files: string[];
  try {
    files = walk(root);
  } catch {
    return [];
  }
  return files.filter((f) => isMatch(f)).sort();
}

function templatefile(ctx: FunctionContext, args: unknown[]): unknown {
  const p = argStr(args, 0);
  if (!isObjectValue(args[1])) throw new FunctionError('invalid vars value: must be a map', 1);
  const vars = args[1];
  return ctx.renderTemplate(readText(ctx, p), vars, p);
}

/** The hash functions open the file directly, so a missing one is Go's open error, not an argument error. */
function hashBytes(ctx: FunctionContext, p: string): Buffer {
  try {
    return readFileSync(resolved(ctx, p));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new FunctionError(
      `open ${p}: ${code === 'ENOENT' ? 'no such file or directory' : (code ?? 'error')}`,
    );
  }
}

const hashFile = (alg: string, enc: 'hex' | 'base64') =>
  fixed(1, (a, ctx) => digest(alg, hashBytes(ctx, argStr(a, 0)), enc));

export const filesystemFunctions: FunctionTable = {
  abspath: fixed(1, (a, ctx) => path.resolve(ctx.baseDir, argStr(a, 0)).split(path.sep).join('/')),
  basename: fixed(1, (a) => basename(argStr(a, 0))),
  dirname: fixed(1, (a) => dirname(argStr(a, 0))),
  pathexpand: fixed(1, (a) => pathexpand(argStr(a, 0))),
  file: fixed(1, (a, ctx) => readText(ctx, argStr(a, 0))),
  filebase64: fixed(1, (a, ctx) => readBytes(ctx, argStr(a, 0)).toString('base64')),
  fileexists: fixed(1, (a, ctx) => fileexists(ctx, argStr(a, 0))),
  fileset: fixed(2, (a, ctx) => fileset(ctx, argStr(a, 0), argStr(a, 1))),
  filemd5: hashFile('md5', 'hex'),
  filesha1: hashFile('sha1', 'hex'),
  filesha256: hashFile('sha256', 'hex'),
  filesha512: hashFile('sha512', 'hex'),
  filebase64sha256: hashFile('sha256', 'base64'),
  filebase64sha512: hashFile('sha512', 'base64'),
  templatefile: fixed(2, (a, ctx) => templatefile(ctx, a), 'shallow'),
};
