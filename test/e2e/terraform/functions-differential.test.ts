/**
 * Every expression of fixtures/function-corpus/corpus.txt evaluated by our engine and by terraform
 * (one plan for the whole corpus): values must be equal, and where terraform fails we must fail too.
 * Error messages are compared and the share that match is printed; `~` lines are known differences,
 * which must still differ (so a fix shows up as a failure asking to drop the mark). Skipped, with a
 * message, when no terraform is on PATH.
 */
import { rmSync } from 'node:fs';
import { jsonEncode } from '../../../src/engine/functions';
import { findTerraform } from './harness';
import { evaluateOurs, evaluateTerraform, makeStackDir, readCorpus, type Outcome } from './function-corpus';

const TERRAFORM = findTerraform();
if (!TERRAFORM) {
  process.stderr.write('test/e2e/terraform: no terraform on PATH, skipping the function differential test\n');
}

/** Values as exact JSON text: numbers with every digit, so 0.1 + 0.2 and big integers compare exactly. */
const show = (o: Outcome): string => (o.ok ? jsonEncode(o.value) : `error: ${o.summary}: ${o.detail}`);

function same(a: Outcome, b: Outcome): boolean {
  if (a.ok !== b.ok) return false;
  return a.ok && b.ok ? jsonEncode(a.value) === jsonEncode(b.value) : true;
}

(TERRAFORM ? describe : describe.skip)('Terraform functions: our engine against terraform', () => {
  const corpus = readCorpus();
  let dir = '';
  let ours: Outcome[] = [];
  let theirs: Outcome[] = [];

  beforeAll(() => {
    dir = makeStackDir();
    ours = evaluateOurs(corpus, dir);
    theirs = evaluateTerraform(TERRAFORM!, corpus, dir);
  }, 90_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the corpus is large and covers failures as well as values', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(600);
    expect(theirs.filter((o) => !o.ok).length).toBeGreaterThanOrEqual(60);
  });

  it('gives the same value as terraform, and fails where terraform fails', () => {
    const diffs = corpus.cases
      .map((c, i) => ({ c, ours: ours[i]!, theirs: theirs[i]! }))
      .filter((d) => !d.c.knownDifference && !same(d.ours, d.theirs))
      .map(
        (d) => `line ${d.c.line}: ${d.c.expr}\n  terraform: ${show(d.theirs)}\n  ours:      ${show(d.ours)}`,
      );
    expect(diffs).toEqual([]);
  });

  it('still differs where the corpus says it knowingly does', () => {
    const fixed = corpus.cases
      .map((c, i) => ({ c, ours: ours[i]!, theirs: theirs[i]! }))
      .filter((d) => d.c.knownDifference && same(d.ours, d.theirs))
      .map((d) => `line ${d.c.line}: ${d.c.expr} now matches terraform; drop its ~ mark`);
    expect(fixed).toEqual([]);
  });

  it('reports the messages of failures as terraform does, mostly', () => {
    const failures = corpus.cases
      .map((c, i) => ({ c, ours: ours[i]!, theirs: theirs[i]! }))
      .filter((d) => !d.theirs.ok && !d.ours.ok);
    const differing = failures.filter(
      (d) =>
        !d.ours.ok &&
        !d.theirs.ok &&
        (d.ours.summary !== d.theirs.summary || d.ours.detail !== d.theirs.detail),
    );
    process.stdout.write(
      `function corpus: ${corpus.cases.length} expressions, ${failures.length} failing in both, ` +
        `${failures.length - differing.length} with the same message\n`,
    );
    expect(failures.length - differing.length).toBeGreaterThan(0);
  });
});
