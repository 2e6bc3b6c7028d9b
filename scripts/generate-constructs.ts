/**
 * `npm run generate`: builds the provider schema JSON from the providers' zod shapes and runs
 * `@cdktf/provider-generator` on it, offline, into `constructs/generated/`. The output is committed;
 * test/unit/constructs/generate.test.ts regenerates into a temp dir and fails when it differs.
 *
 * The generator's TypeScript does not mark overriding members `override`, which our tsconfig
 * (noImplicitOverride) demands. Rather than exempting generated code from the check, the compiler
 * itself points at each such member and the keyword is inserted there.
 */
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { regProvider } from '../src/provider/reg/provider';
import { schedProvider } from '../src/provider/sched/provider';
import {
  PROVIDER_ADDRESSES,
  providersSchemaJson,
  type ProviderShapes,
} from '../src/provider/terraform-schema';

export const REPO_ROOT = path.resolve(__dirname, '..');
export const GENERATED_DIR = path.join(REPO_ROOT, 'constructs', 'generated');
export const SCHEMA_FILE = 'providers-schema.json';

const README = `# Generated provider bindings

Do not edit. \`npm run generate\` writes this directory from the providers' zod shapes
(\`src/provider/terraform-schema.ts\`) with \`@cdktf/provider-generator\`; a unit test fails when it is stale.
Use the typed constructs in \`constructs/\` (Job, Namespace, ...), which wrap these classes.
`;

/** The providers whose bindings are committed. */
export function defaultProviders(): ProviderShapes[] {
  return [schedProvider, regProvider];
}

/** relative path (posix) -> contents */
export type FileSet = Map<string, string>;

/** Runs the generator for each provider and returns the files it would write, already post-processed. */
export async function generateConstructFiles(providers: readonly ProviderShapes[]): Promise<FileSet> {
  // Loading @cdktf/commons runs `terraform version` (for the CLI's sake) and reports failures to a
  // telemetry endpoint unless checkpoints are disabled. Generating code needs neither Terraform nor
  // the network: point the version probe at `true` while the module loads, and disable telemetry.
  process.env.CHECKPOINT_DISABLE = '1';
  const binary = process.env.TERRAFORM_BINARY_NAME;
  process.env.TERRAFORM_BINARY_NAME = 'true';
  const commons = await import('@cdktf/commons').finally(() => {
    if (binary === undefined) delete process.env.TERRAFORM_BINARY_NAME;
    else process.env.TERRAFORM_BINARY_NAME = binary;
  });
  const { CodeMaker } = await import('codemaker');
  const { TerraformProviderGenerator } =
    await import('@cdktf/provider-generator/lib/get/generator/provider-generator.js');

  const schema = providersSchemaJson(providers);
  const files: FileSet = new Map();
  files.set(SCHEMA_FILE, `${JSON.stringify(schema, null, 2)}\n`);
  files.set('README.md', README);

  const work = await mkdtemp(path.join(tmpdir(), 'cdktf-sched-gen-'));
  try {
    for (const p of providers) {
      // One generator per provider, as `cdktf get` does: its resource parser keeps per-provider state.
      const code = new CodeMaker();
      // The schema format differs from the generator's declared one only in format_version.
      const generator = new TerraformProviderGenerator(
        code,
        schema as unknown as import('@cdktf/commons').ProviderSchema,
      );
      const source = PROVIDER_ADDRESSES[p.name].split('/').slice(1).join('/');
      const constraint = new commons.TerraformProviderConstraint(source);
      generator.generate(new commons.ConstructsMakerProviderTarget(constraint, commons.LANGUAGES[0]!));
      await code.save(work);
    }
    for (const p of providers) {
      const root = path.join(work, 'providers', p.name);
      for (const rel of await listFiles(root)) {
        // READMEs point at registry docs that do not exist; the lazy index is for jsii packages.
        if (!rel.endsWith('.ts') || rel === 'lazy-index.ts') continue;
        files.set(`${p.name}/${rel}`, await readFile(path.join(root, rel), 'utf8'));
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  addOverrideModifiers(files);
  return files;
}

/** Writes `files` into `outDir`, replacing what an earlier run wrote there. */
export async function writeFileSet(outDir: string, files: FileSet): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  for (const [rel, text] of files) {
    const target = path.join(outDir, rel);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

/** Reads a directory tree into a FileSet (for the staleness check). */
export async function readFileSet(dir: string): Promise<FileSet> {
  const files: FileSet = new Map();
  for (const rel of await listFiles(dir)) files.set(rel, await readFile(path.join(dir, rel), 'utf8'));
  return files;
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw e;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(path.join(dir, e.name), rel)));
    else out.push(rel);
  }
  return out;
}

const OVERRIDE_CODES = new Set([4114, 4115, 4116]);
const libraryFiles = new Map<string, ts.SourceFile>();

/**
 * Type-checks the generated files in memory (as if they sat in constructs/generated, so `cdktf`
 * and `constructs` resolve from our node_modules) and inserts `override` where the compiler asks.
 */
function addOverrideModifiers(files: FileSet): void {
  const virtual = new Map<string, string>();
  for (const [rel, text] of files) if (rel.endsWith('.ts')) virtual.set(path.join(GENERATED_DIR, rel), text);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
    noImplicitOverride: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readText = host.readFile.bind(host);
  host.getSourceFile = (name, lang, onError, shouldCreate) => {
    const text = virtual.get(path.resolve(name));
    if (text !== undefined) return ts.createSourceFile(name, text, lang, true);
    // The standard library and cdktf's declarations do not change between runs in one process.
    let sf = libraryFiles.get(name);
    if (!sf) {
      sf = getSourceFile(name, lang, onError, shouldCreate);
      if (sf) libraryFiles.set(name, sf);
    }
    return sf;
  };
  host.fileExists = (name) =>
    virtual.has(path.resolve(name)) || (!isUnderGenerated(name) && fileExists(name));
  host.readFile = (name) =>
    virtual.get(path.resolve(name)) ?? (isUnderGenerated(name) ? undefined : readText(name));
  host.directoryExists = (dir) =>
    [...virtual.keys()].some((f) => f.startsWith(path.resolve(dir) + path.sep)) ||
    (!isUnderGenerated(dir) && ts.sys.directoryExists(dir));

  const program = ts.createProgram([...virtual.keys()], options, host);
  const inserts = new Map<string, Map<number, string>>();
  const diagnostics = program
    .getSourceFiles()
    .filter((sf) => virtual.has(path.resolve(sf.fileName)))
    .flatMap((sf) => program.getSemanticDiagnostics(sf));
  for (const d of diagnostics) {
    if (!d.file || d.start === undefined || !OVERRIDE_CODES.has(d.code)) continue;
    const insert = overrideInsertion(d.file, d.start);
    if (!insert) continue;
    const key = path.resolve(d.file.fileName);
    const forFile = inserts.get(key) ?? new Map<number, string>();
    forFile.set(insert.at, insert.text);
    inserts.set(key, forFile);
  }
  for (const [rel, text] of files) {
    const forFile = inserts.get(path.join(GENERATED_DIR, rel));
    if (!forFile) continue;
    let out = text;
    // From the end, so earlier positions stay valid.
    for (const [at, insert] of [...forFile].sort(([a], [b]) => b - a))
      out = out.slice(0, at) + insert + out.slice(at);
    files.set(rel, out);
  }
}

function isUnderGenerated(name: string): boolean {
  const abs = path.resolve(name);
  return abs === GENERATED_DIR || abs.startsWith(GENERATED_DIR + path.sep);
}

/** `override` goes after the accessibility modifier (`protected override x`), else before the member. */
function overrideInsertion(file: ts.SourceFile, start: number): { at: number; text: string } | undefined {
  let node: ts.Node | undefined = findNode(file, start);
  while (node && !ts.isClassElement(node) && !ts.isParameter(node)) node = node.parent;
  if (!node) return undefined;
  const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
  const access = modifiers.find(
    (m) =>
      m.kind === ts.SyntaxKind.PublicKeyword ||
      m.kind === ts.SyntaxKind.ProtectedKeyword ||
      m.kind === ts.SyntaxKind.PrivateKeyword,
  );
  return access ? { at: access.getEnd(), text: ' override' } : { at: node.getStart(file), text: 'override ' };
}

function findNode(node: ts.Node, pos: number): ts.Node | undefined {
  if (pos < node.getFullStart() || pos >= node.getEnd()) return undefined;
  for (const child of node.getChildren()) {
    const found = findNode(child, pos);
    if (found) return found;
  }
  return node;
}

async function main(): Promise<void> {
  const files = await generateConstructFiles(defaultProviders());
  await writeFileSet(GENERATED_DIR, files);
  console.log(`wrote ${files.size} files to ${path.relative(process.cwd(), GENERATED_DIR) || '.'}`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exitCode = 1;
  });
}
