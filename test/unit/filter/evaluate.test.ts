import { compileFilter, evaluateFilter, FilterError, parseFilter } from '../../../src/agent/filter';
import type { FilterOptions } from '../../../src/agent/filter';

/** Shaped like a Nomad job as the HTTP API returns it (JSON.parse of a real payload shape). */
const job: unknown = JSON.parse(
  JSON.stringify({
    ID: 'web',
    Name: 'web',
    Namespace: 'default',
    Type: 'service',
    Status: 'running',
    Priority: 50,
    Version: 3,
    Stop: false,
    Stable: true,
    Ratio: 0.25,
    ParentID: '',
    Datacenters: ['dc1', 'dc2'],
    Mixed: ['text', 1, true, null],
    Meta: { owner: 'ops', 'my-key': 'dashed', 'a.b': 'dotted', empty: '' },
    EmptyMeta: {},
    EmptyList: [],
    Periodic: null,
    Update: { Stagger: 30000000000, MaxParallel: 1, AutoRevert: false },
    TaskGroups: [
      {
        Name: 'frontend',
        Count: 2,
        Meta: { tier: 'edge' },
        Tasks: [
          { Name: 'nginx', Driver: 'docker', Config: { image: 'nginx:1.25' } },
          { Name: 'sidecar', Driver: 'exec', Config: {} },
        ],
      },
      {
        Name: 'api',
        Count: 1,
        Meta: {},
        Tasks: [{ Name: 'server', Driver: 'docker', Config: { image: 'api:2' } }],
      },
    ],
  }),
);

function run(expression: string, datum: unknown = job, options?: FilterOptions): boolean {
  return evaluateFilter(parseFilter(expression), datum, options);
}

function failure(expression: string, datum: unknown = job, options?: FilterOptions): FilterError {
  try {
    run(expression, datum, options);
  } catch (err) {
    if (err instanceof FilterError) return err;
    throw err;
  }
  throw new Error(`expected ${expression} to fail`);
}

describe('evaluateFilter: equality', () => {
  it.each([
    ['Status == "running"', true],
    ['Status == `running`', true],
    ['Status == running', true],
    ['Status == "Running"', false],
    ['Status != "running"', false],
    ['Status != "dead"', true],
    ['ParentID == ""', true],
    ['Meta.owner == ops', true],
    ['Meta["my-key"] == "dashed"', true],
    ['Meta["a.b"] == dotted', true],
    ['Update.MaxParallel == 1', true],
  ])('strings and nesting: %s -> %s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it.each([
    ['Priority == 50', true],
    ['Priority == 50.0', true],
    ['Priority == "50"', true],
    ['Priority == `5e1`', true],
    ['Priority != 50', false],
    ['Priority == 51', false],
    ['Priority == -50', false],
    ['Ratio == 0.25', true],
    ['Ratio == "0.250"', true],
    ['Ratio == ".25"', true],
  ])('numbers convert the value to a number: %s -> %s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it.each([
    ['Stop == false', true],
    ['Stop == "false"', true],
    ['Stop == False', true],
    ['Stop == f', true],
    ['Stop == 0', true],
    ['Stable == true', true],
    ['Stable == 1', true],
    ['Stable == T', true],
    ['Stable != true', false],
    ['Stable == false', false],
  ])('booleans convert the value with Go ParseBool rules: %s -> %s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it('compares a number-looking string field as text', () => {
    expect(run('Code == 7', { Code: '7' })).toBe(true);
    expect(run('Code == 7.0', { Code: '7' })).toBe(false);
  });

  it('fails when the value cannot be converted to the field type', () => {
    const err = failure('Priority == high');
    expect(err.message).toContain('error getting match value in expression');
    expect(err.message).toContain('"high" to float64');
    expect(err.selector).toBe('Priority');
    expect(failure('Stop == yes').message).toContain('"yes" to bool');
    expect(failure('Priority == "1e999"').message).toContain('out of range');
  });

  it('fails to compare whole arrays or objects for equality', () => {
    expect(failure('Datacenters == dc1').message).toContain(
      'unable to find suitable primitive comparison function',
    );
    expect(failure('Meta == x').message).toContain('map');
  });
});

describe('evaluateFilter: in / contains', () => {
  it.each([
    ['"dc1" in Datacenters', true],
    ['dc2 in Datacenters', true],
    ['"dc" in Datacenters', false],
    ['"dc3" not in Datacenters', true],
    ['"dc1" not in Datacenters', false],
    ['Datacenters contains "dc1"', true],
    ['Datacenters not contains "dc1"', false],
    ['Datacenters contains dc9', false],
  ])('arrays test element membership: %s -> %s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it.each([
    ['"owner" in Meta', true],
    ['"ops" in Meta', false],
    ['Meta contains "my-key"', true],
    ['Meta not contains owner', false],
    ['"x" in EmptyMeta', false],
  ])('objects test key membership: %s -> %s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it.each([
    ['"run" in Status', true],
    ['Status contains "unn"', true],
    ['Status contains "walk"', false],
    ['"" in Status', true],
    ['Status not contains "run"', false],
  ])('strings test substrings: %s -> %s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it('converts the value to each element type in a mixed array, skipping elements it cannot convert to', () => {
    expect(run('"text" in Mixed')).toBe(true);
    expect(run('"1" in Mixed')).toBe(true);
    expect(run('1 in Mixed')).toBe(true);
    expect(run('true in Mixed')).toBe(true);
    expect(run('2 in Mixed')).toBe(false);
    expect(run('"nope" in Mixed')).toBe(false);
    expect(run('"t" in Flags', { Flags: [true] })).toBe(true);
    expect(run('"x" in Ports', { Ports: [80, 443] })).toBe(false);
    expect(run('443 in Ports', { Ports: [80, 443] })).toBe(true);
  });

  it('fails on arrays of objects and on numbers or booleans', () => {
    expect(failure('"x" in TaskGroups').message).toContain('"in" comparison in interface slice: map');
    expect(failure('"5" in Priority').message).toContain(
      'Cannot perform in/contains operations on type float64',
    );
    expect(failure('Stop contains "f"').message).toContain('type bool');
  });
});

describe('evaluateFilter: is empty', () => {
  it.each([
    ['EmptyList is empty', true],
    ['EmptyList is not empty', false],
    ['Datacenters is empty', false],
    ['Datacenters is not empty', true],
    ['EmptyMeta is empty', true],
    ['Meta is empty', false],
    ['Meta is not empty', true],
    ['ParentID is empty', true],
    ['Status is empty', false],
    ['Meta.empty is empty', true],
    ['Periodic is empty', true],
    ['Periodic is not empty', false],
  ])('%s -> %s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it('fails on numbers and booleans', () => {
    expect(failure('Priority is empty').message).toContain('type float64');
    expect(failure('Stop is not empty').message).toContain('type bool');
  });
});

describe('evaluateFilter: matches (RE2)', () => {
  it.each([
    ['Status matches "^run"', true],
    ['Status matches "ning$"', true],
    ['Status matches "unn"', true],
    ['Status matches "^unn"', false],
    ['Status not matches "^run"', false],
    ['Status not matches "^dead"', true],
    ['Meta.owner matches `^[a-z]+$`', true],
    ['Status matches `(?i)^RUNNING$`', true],
    ['Status matches `^\\w+$`', true],
    ['ID matches web', true],
  ])('%s -> %s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it('fails on non-strings', () => {
    expect(failure('Priority matches "5"').message).toContain(
      'Value of type float64 is not convertible to []byte',
    );
  });

  it('takes linear time on patterns that are exponential for a backtracking engine', () => {
    // The case: 31 characters took 4.5 s with JavaScript's RegExp, doubling with each one more.
    const predicate = compileFilter('Meta.n matches "^(a+)+$"');
    const started = performance.now();
    expect(predicate({ Meta: { n: 'a'.repeat(30) + 'b' } })).toBe(false);
    expect(predicate({ Meta: { n: 'a'.repeat(20_000) + 'b' } })).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('evaluateFilter: logic', () => {
  it.each([
    ['Status == running and Priority == 50', true],
    ['Status == running and Priority == 1', false],
    ['Status == dead or Priority == 50', true],
    ['Status == dead or Priority == 1', false],
    ['not Status == dead', true],
    ['not (Status == running and Priority == 50)', false],
    // A and not B or C  ==  (A and (not B)) or C
    ['Status == dead and not Priority == 1 or Stable == true', true],
    ['Status == dead and not (Priority == 1 or Stable == true)', false],
    ['Status == running and not Stop == true or Priority == 1', true],
  ])('%s -> %s', (expression, expected) => {
    expect(run(expression)).toBe(expected);
  });

  it('short-circuits left to right, so an error on the right is not reached', () => {
    expect(run('Status == dead and Missing == 1')).toBe(false);
    expect(run('Status == running or Missing == 1')).toBe(true);
    expect(() => run('Status == running and Missing == 1')).toThrow(FilterError);
  });
});

describe('evaluateFilter: selectors that walk through arrays', () => {
  it('indexes arrays with numeric segments', () => {
    expect(run('TaskGroups.0.Name == frontend')).toBe(true);
    expect(run('TaskGroups.1.Name == frontend')).toBe(false);
    expect(run('TaskGroups.0.Tasks.1.Driver == exec')).toBe(true);
    expect(run('Datacenters.1 == dc2')).toBe(true);
    expect(run('TaskGroups["1"].Count == 1')).toBe(true);
  });

  it('fails on an index out of range', () => {
    const err = failure('TaskGroups.5.Name == x');
    expect(err.message).toContain('error finding value in datum: /TaskGroups/5 at part 1');
    expect(err.message).toContain('out of range (length = 2)');
  });

  it('applies a name segment to every element: true when any element matches', () => {
    expect(run('TaskGroups.Name == api')).toBe(true);
    expect(run('TaskGroups.Name == db')).toBe(false);
    expect(run('TaskGroups.Count == 2')).toBe(true);
    expect(run('TaskGroups.Tasks.Name == server')).toBe(true);
    expect(run('TaskGroups.Tasks.Config.image matches "^nginx:"')).toBe(true);
    expect(run('TaskGroups.Tasks.Driver == "raw_exec"')).toBe(false);
    expect(run('TaskGroups.Meta.tier == edge')).toBe(true);
    expect(run('"edge" in TaskGroups.Meta.tier')).toBe(true);
    expect(run('TaskGroups.Meta is empty')).toBe(true);
  });

  it('negates over all elements: != holds when no element is equal', () => {
    expect(run('TaskGroups.Name != db')).toBe(true);
    expect(run('TaskGroups.Name != api')).toBe(false);
    expect(run('"api" not in TaskGroups.Name')).toBe(false);
    expect(run('TaskGroups.Tasks.Driver not matches "^(docker|exec)$"')).toBe(false);
  });

  it('treats an empty array as reaching nothing', () => {
    const datum = { TaskGroups: [] };
    expect(run('TaskGroups.Name == web', datum)).toBe(false);
    expect(run('TaskGroups.Name != web', datum)).toBe(true);
  });

  it('finds a value in an array of scalars reached through objects', () => {
    const datum = { Groups: [{ Tags: ['a', 'b'] }, { Tags: ['c'] }] };
    expect(run('"c" in Groups.Tags', datum)).toBe(true);
    expect(run('"d" in Groups.Tags', datum)).toBe(false);
    expect(run('Groups.Tags contains b', datum)).toBe(true);
  });

  it('works when the datum itself is an array', () => {
    expect(run('Name == b', [{ Name: 'a' }, { Name: 'b' }])).toBe(true);
  });
});

describe('evaluateFilter: missing selectors', () => {
  it('fails on a missing top-level field with "error finding value in datum" and the selector', () => {
    const err = failure('HTTPAddr == "10.0.0.1:4646"');
    expect(err).toBeInstanceOf(FilterError);
    expect(err.message).toContain('error finding value in datum');
    expect(err.message).toContain('HTTPAddr');
    expect(err.message).toBe(
      'error finding value in datum: /HTTPAddr at part 0: couldn\'t find struct field with name "HTTPAddr" (selector HTTPAddr)',
    );
    expect(err.selector).toBe('HTTPAddr');
  });

  it('fails for every operator, including negated ones', () => {
    for (const expression of [
      'Nope != 1',
      'Nope is empty',
      'x in Nope',
      'x not in Nope',
      'Nope not matches x',
    ]) {
      expect(failure(expression).message).toContain('error finding value in datum: /Nope');
    }
  });

  it('does not see inherited properties', () => {
    expect(failure('constructor == x').message).toContain('error finding value in datum');
    expect(failure('Meta.toString is empty', job, { isMap: () => false }).message).toContain('toString');
  });

  it('treats a missing last key of a nested object (a map) as absent, like go-bexpr', () => {
    expect(run('Meta.team == "x"')).toBe(false);
    expect(run('Meta.team != "x"')).toBe(true);
    expect(run('"x" in Meta.team')).toBe(false);
    expect(run('"x" not in Meta.team')).toBe(true);
    expect(run('Meta.team is empty')).toBe(true);
    expect(run('Meta.team is not empty')).toBe(false);
    expect(run('Meta.team matches "."')).toBe(false);
    expect(run('Meta.team not matches "."')).toBe(true);
  });

  it('fails when the missing key is not the last segment', () => {
    const err = failure('Meta.team.lead == x');
    expect(err.message).toBe(
      'error finding value in datum: /Meta/team at part 1: couldn\'t find key "team" (selector Meta.team.lead)',
    );
  });

  it('lets the caller declare which objects are records with fixed fields', () => {
    const isMap = (path: readonly string[]): boolean => path[path.length - 1] === 'Meta';
    expect(run('Meta.team == x', job, { isMap })).toBe(false);
    expect(run('TaskGroups.Meta.team == x', job, { isMap })).toBe(false);
    const err = failure('Update.Nope == 1', job, { isMap });
    expect(err.message).toBe(
      'error finding value in datum: /Update/Nope at part 1: couldn\'t find struct field with name "Nope" (selector Update.Nope)',
    );
    expect(failure('TaskGroups.Nope == 1', job, { isMap }).message).toContain('/TaskGroups/Nope at part 1');
  });

  it('passes the walked keys, without array indexes, to isMap', () => {
    const seen: string[] = [];
    const isMap = (path: readonly string[]): boolean => {
      seen.push(path.join('.'));
      return true;
    };
    run('TaskGroups.Tasks.Config.tag == x', job, { isMap });
    run('TaskGroups.0.Meta.nope == x', job, { isMap });
    expect(new Set(seen)).toEqual(new Set(['TaskGroups.Tasks.Config', 'TaskGroups.Meta']));
  });

  it('treats null and explicitly undefined values as absent', () => {
    expect(run('Periodic == x')).toBe(false);
    expect(run('Periodic != x')).toBe(true);
    expect(run('Periodic.Enabled == true')).toBe(false);
    expect(run('"a" in Periodic')).toBe(false);
    expect(run('A == x', { A: undefined })).toBe(false);
  });

  it('fails when a selector walks into a scalar', () => {
    expect(failure('Status.Foo == 1').message).toBe(
      'error finding value in datum: /Status/Foo: at part 1, invalid value kind: string (selector Status.Foo)',
    );
  });

  it('reports JSON pointer selectors in the same way', () => {
    expect(run('"/Meta/my-key" == dashed')).toBe(true);
    expect(run('"/TaskGroups/0/Name" == frontend')).toBe(true);
    expect(failure('"/Nope/x" == 1').message).toContain('/Nope at part 0');
  });
});

describe('compileFilter', () => {
  it('parses once and evaluates many data', () => {
    const predicate = compileFilter('Status == running and "dc1" in Datacenters');
    const jobs = [
      { Status: 'running', Datacenters: ['dc1'] },
      { Status: 'dead', Datacenters: ['dc1'] },
      { Status: 'running', Datacenters: ['dc2'] },
    ];
    expect(jobs.map(predicate)).toEqual([true, false, false]);
  });

  it('throws FilterError for bad syntax when compiling, not when called', () => {
    expect(() => compileFilter('Status ===')).toThrow(FilterError);
  });

  it('passes options through', () => {
    const strict = compileFilter('Meta.nope == x', { isMap: () => false });
    expect(() => strict({ Meta: {} })).toThrow(/couldn't find struct field with name "nope"/);
    expect(compileFilter('Meta.nope == x')({ Meta: {} })).toBe(false);
  });

  it('FilterError is an Error with a name', () => {
    const err = failure('Nope == 1');
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('FilterError');
  });
});
