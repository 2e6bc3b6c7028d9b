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
import { PROVIDER_VERSION } from '../src/plugin/mirror';
import {
  PROVIDER_ADDRESSES,
  providersSchemaJson,
  type ProviderShapes,
} from '../src/provider/terraform-schema';

export const REPO_ROOT = path.resolve(__dirname, '..');
export const SCHEMA_FILE = 'providers-schema.json';

/**
 * The CDK libraries the bindings are generated for: cdktf, and its community fork cdktn, whose App
 * only resolves classes made by its own generator. Both read the same schema JSON.
 */
export type Flavor = 'cdktf' | 'cdktn';
export const FLAVORS: readonly Flavor[] = ['cdktf', 'cdktn'];
export const GENERATED_DIRS: Record<Flavor, string> = {
  cdktf: path.join(REPO_ROOT, 'constructs', 'generated'),
  cdktn: path.join(REPO_ROOT, 'constructs', 'generated-cdktn'),
};
export const GENERATED_DIR = GENERATED_DIRS.cdktf;

const README = (flavor: Flavor): string => `# Generated provider bindings (${flavor})

Do not edit. \`npm run generate\` writes this directory from the providers' zod shapes
(\`src/provider/terraform-schema.ts\`) with \`@${flavor}/provider-generator\`; a unit test fails when it is stale.
Use the typed constructs in \`constructs/\` (Job, Namespace, ...), which wrap these classes.
`;

/** The providers whose bindings are committed. */
export function defaultProviders(): ProviderShapes[] {
  return [schedProvider, regProvider];
}

/** relative path (posix) -> contents */
export type FileSet = Map<string, string>;

type Commons = typeof import('@cdktf/commons');
type GeneratorModule = typeof import('@cdktf/provider-generator/lib/get/generator/provider-generator.js');
type CodeMakerModule = typeof import('codemaker');
interface Toolchain {
  commons: Commons;
  generator: GeneratorModule;
  codemaker: CodeMakerModule;
}

/**
 * The generator of one flavor, with the codemaker it was built with. cdktn's packages mirror cdktf's
 * (same classes, same paths under build/ instead of lib/), so one set of declarations types both.
 */
async function loadToolchain(flavor: Flavor): Promise<Toolchain> {
  // Loading the commons module runs `terraform version` (for the CLI's sake) and reports failures to a
  // telemetry endpoint unless checkpoints are disabled. Generating code needs neither Terraform nor
  // the network: point the version probe at `true` while the module loads, and disable telemetry.
  process.env.CHECKPOINT_DISABLE = '1';
  const binary = process.env.TERRAFORM_BINARY_NAME;
  process.env.TERRAFORM_BINARY_NAME = 'true';
  try {
    if (flavor === 'cdktf') {
      return {
        commons: await import('@cdktf/commons'),
        generator: await import('@cdktf/provider-generator/lib/get/generator/provider-generator.js'),
        codemaker: await import('codemaker'),
      };
    }
    const generatorRoot = path.dirname(require.resolve('@cdktn/provider-generator/package.json'));
    const fromGenerator = (id: string): string => require.resolve(id, { paths: [generatorRoot] });
    return {
      commons: (await import(fromGenerator('@cdktn/commons'))) as Commons,
      generator: (await import(
        path.join(generatorRoot, 'build/get/generator/provider-generator.js')
      )) as GeneratorModule,
      codemaker: (await import(fromGenerator('codemaker'))) as CodeMakerModule,
    };
  } finally {
    if (binary === undefined) delete process.env.TERRAFORM_BINARY_NAME;
    else process.env.TERRAFORM_BINARY_NAME = binary;
  }
}

/** Runs the generator for each provider and returns the files it would write, already post-processed. */
export async function generateConstructFiles(
  providers: readonly ProviderShapes[],
  flavor: Flavor = 'cdktf',
): Promise<FileSet> {
  const { commons, generator, codemaker } = await loadToolchain(flavor);
  const schema = providersSchemaJson(providers);
  const files: FileSet = new Map();
  files.set(SCHEMA_FILE, `${JSON.stringify(schema, null, 2)}\n`);
  files.set('README.md', README(flavor));
  // The version each provider's required_providers entry carries: the real cdktf CLI refuses an
  // entry without one, and it is the version the Terraform mirror serves.
  const provider_versions = Object.fromEntries(
    providers.map((p) => [PROVIDER_ADDRESSES[p.name], PROVIDER_VERSION]),
  );

  const work = await mkdtemp(path.join(tmpdir(), 'cdktf-sched-gen-'));
  try {
    for (const p of providers) {
      // One generator per provider, as `cdktf get` does: its resource parser keeps per-provider state.
      const code = new codemaker.CodeMaker();
      // The schema format differs from the generator's declared one only in format_version.
      const gen = new generator.TerraformProviderGenerator(code, {
        ...schema,
        provider_versions,
      } as unknown as import('@cdktf/commons').ProviderSchema);
      const source = PROVIDER_ADDRESSES[p.name].split('/').slice(1).join('/');
      const constraint = new commons.TerraformProviderConstraint(source);
      gen.generate(new commons.ConstructsMakerProviderTarget(constraint, commons.LANGUAGES[0]!));
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
  addOverrideModifiers(files, GENERATED_DIRS[flavor]);
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
function addOverrideModifiers(files: FileSet, generatedDir: string): void {
  const virtual = new Map<string, string>();
  for (const [rel, text] of files) if (rel.endsWith('.ts')) virtual.set(path.join(generatedDir, rel), text);
  const isUnderGenerated = (name: string): boolean => {
    const abs = path.resolve(name);
    return abs === generatedDir || abs.startsWith(generatedDir + path.sep);
  };
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
    const forFile = inserts.get(path.join(generatedDir, rel));
    if (!forFile) continue;
    let out = text;
    // From the end, so earlier positions stay valid.
    for (const [at, insert] of [...forFile].sort(([a], [b]) => b - a))
      out = out.slice(0, at) + insert + out.slice(at);
    files.set(rel, out);
  }
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
  for (const flavor of FLAVORS) {
    const files = await generateConstructFiles(defaultProviders(), flavor);
    const dir = GENERATED_DIRS[flavor];
    await writeFileSet(dir, files);
    console.log(`wrote ${files.size} files to ${path.relative(process.cwd(), dir) || '.'}`);
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exitCode = 1;
  });
}
