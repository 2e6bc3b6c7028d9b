import { layoutLine, outputLines, resourceLines } from '../../../../src/engine/render/diff';
import type { ResourceChange } from '../../../../src/engine/render/model';
import { UNKNOWN } from '../../../../src/provider/values';

function change(over: Partial<ResourceChange>): ResourceChange {
  return {
    address: 'sched_job.web',
    mode: 'managed',
    type: 'sched_job',
    name: 'web',
    providerName: 'registry.terraform.io/cdktf-sched/sched',
    action: 'update',
    before: {},
    after: {},
    afterUnknown: [],
    beforeSensitive: [],
    afterSensitive: [],
    replacePaths: [],
    diagnostics: [],
    ...over,
  };
}

const render = (rc: ResourceChange): string => resourceLines(rc).map(layoutLine).join('\n');

describe('attribute diffs', () => {
  it('diffs a JSON string attribute as a structure, not as one long string', () => {
    const job = (count: number, image: string) =>
      JSON.stringify({
        ID: 'web',
        TaskGroups: [{ Name: 'web', Count: count, Tasks: [{ Name: 't', Config: { image } }] }],
      });
    const out = render(change({ before: { jobspec: job(2, 'a:1') }, after: { jobspec: job(3, 'a:2') } }));
    expect(out).toBe(
      [
        '  ~ resource "sched_job" "web" {',
        '      ~ jobspec = jsonencode(',
        '          ~ {',
        '              ~ TaskGroups = [',
        '                  ~ {',
        '                      ~ Count = 2 -> 3',
        '                      ~ Tasks = [',
        '                          ~ {',
        '                              ~ Config = {',
        '                                  ~ image = "a:1" -> "a:2"',
        '                                }',
        '                                # (1 unchanged attribute hidden)',
        '                            },',
        '                        ]',
        '                        # (1 unchanged attribute hidden)',
        '                    },',
        '                ]',
        '                # (1 unchanged attribute hidden)',
        '            }',
        '        )',
        '    }',
      ].join('\n'),
    );
    expect(out).not.toContain('{"ID"');
  });

  it('writes a created or destroyed JSON value whole: nested JSON, heredocs, empty and quoted keys', () => {
    const spec = JSON.stringify({
      ID: 'web',
      Meta: { 'team.name': 'ops', inner: '{"b": [1, null]}', ' spaced': '  [true]' },
      Empty: { list: [], map: {} },
      Script: 'echo a\necho b\n',
      Unknown: { __unknown__: true },
      List: [1, 'two', false, null, [], {}],
    });
    const lines = (action: 'create' | 'delete') =>
      render(change(action === 'create' ? { action, after: { spec } } : { action, before: { spec } }));
    const created = [
      '  + resource "sched_job" "web" {',
      '      + spec = jsonencode(',
      '          + {',
      '              + Empty   = {',
      '                  + list = []',
      '                  + map  = {}',
      '                }',
      '              + ID      = "web"',
      '              + List    = [',
      '                  + 1,',
      '                  + "two",',
      '                  + false,',
      '                  + null,',
      '                  + [],',
      '                  + {},',
      '                ]',
      '              + Meta    = {',
      '                  + " spaced"   = jsonencode(',
      '                      + [',
      '                          + true,',
      '                        ]',
      '                    )',
      '                  + inner       = jsonencode(',
      '                      + {',
      '                          + b = [',
      '                              + 1,',
      '                              + null,',
      '                            ]',
      '                        }',
      '                    )',
      '                  + "team.name" = "ops"',
      '                }',
      '              + Script  = <<-EOT',
      '                    echo a',
      '                    echo b',
      '                EOT',
      '              + Unknown = (known after apply)',
      '            }',
      '        )',
      '    }',
    ];
    expect(lines('create')).toBe(created.join('\n'));
    // The same lines with the other symbol; an unknown marker is a value like any other there.
    const destroyed = created.map((l) =>
      l
        .replace('+ ', '- ')
        .replace('(known after apply)', '[object Object]')
        .replace(/^ {8}\)$/, '        ) -> null'),
    );
    expect(lines('delete')).toBe(destroyed.join('\n'));
  });

  it('notes a JSON attribute that changed only in formatting', () => {
    const out = render(change({ before: { spec: '{"a": 1}' }, after: { spec: '{\n  "a": 1\n}' } }));
    expect(out).toContain('~ spec = jsonencode(');
    expect(out).toContain('# (whitespace changes only)');
  });

  it('aligns names, hides unchanged attributes but keeps id and name, marks forced replacement', () => {
    const out = render(
      change({
        action: 'replace',
        before: { id: 'x', name: 'a', region: 'eu', description: 'same', count: 1 },
        after: { id: 'x', name: 'b', region: 'us', description: 'same', count: 1 },
        replacePaths: [['region']],
      }),
    );
    expect(out.split('\n')).toEqual([
      '-/+ resource "sched_job" "web" {',
      '        id     = "x"',
      '      ~ name   = "a" -> "b"',
      '      ~ region = "eu" -> "us" # forces replacement',
      '        # (2 unchanged attributes hidden)',
      '    }',
    ]);
  });

  it('shows list changes by alignment (LCS), with primitive context and hidden counts', () => {
    const out = render(
      change({
        before: { l: ['a', 'b', 'c', 'd', 'e', 'f'] },
        after: { l: ['a', 'b', 'c', 'X', 'e', 'f', 'g'] },
      }),
    );
    expect(out.split('\n').slice(1, -1)).toEqual([
      '      ~ l = [',
      '            # (2 unchanged elements hidden)',
      '            "c",',
      '          - "d",',
      '          + "X",',
      '            "e",',
      '            "f",',
      '          + "g",',
      '        ]',
    ]);
  });

  it('renders values not known until apply and sensitive values, nested too', () => {
    const out = render(
      change({
        before: { id: 'web', env: { A: '1', TOKEN: 'old-secret' }, ids: [1, 2] },
        after: { id: UNKNOWN, env: { A: '1', TOKEN: 'new-secret' }, ids: [1, UNKNOWN] },
        afterUnknown: [['id']],
        beforeSensitive: [['env', 'TOKEN']],
        afterSensitive: [['env', 'TOKEN']],
      }),
    );
    expect(out).toContain('~ id  = "web" -> (known after apply)');
    expect(out).toContain('~ TOKEN = (sensitive value)');
    expect(out).toContain('- 2,');
    expect(out).toContain('+ (known after apply),');
    expect(out).not.toContain('secret');
  });

  it('lists a created attribute that afterUnknown names even where after is null or lacks it', () => {
    const out = render(
      change({
        action: 'create',
        before: null,
        after: { name: 'a', id: null, note: null },
        afterUnknown: [['id'], ['version'], ['id'], ['tags', 0]],
      }),
    );
    expect(out.split('\n')).toEqual([
      '  + resource "sched_job" "web" {',
      '      + id      = (known after apply)',
      '      + name    = "a"',
      '      + version = (known after apply)',
      '    }',
    ]);
  });

  it('shows created and destroyed resources whole, dropping null attributes', () => {
    const created = render(
      change({
        action: 'create',
        before: null,
        after: { name: 'a', tags: { x: '1' }, note: null, empty: [] },
      }),
    );
    expect(created.split('\n')).toEqual([
      '  + resource "sched_job" "web" {',
      '      + empty = []',
      '      + name  = "a"',
      '      + tags  = {',
      '          + x = "1"',
      '        }',
      '    }',
    ]);
    const destroyed = render(
      change({ action: 'delete', before: { name: 'a', tags: { x: '1' } }, after: null }),
    );
    expect(destroyed.split('\n')).toEqual([
      '  - resource "sched_job" "web" {',
      '      - name = "a" -> null',
      '      - tags = {',
      '          - x = "1"',
      '        } -> null',
      '    }',
    ]);
  });

  it('diffs multi-line strings line by line as heredocs', () => {
    const before = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 5', 'line five');
    const out = render(change({ before: { script: before }, after: { script: after } }));
    expect(out.split('\n').slice(1, -1)).toEqual([
      '      ~ script = <<-EOT',
      '            # (3 unchanged lines hidden)',
      '            line 3',
      '            line 4',
      '          - line 5',
      '          + line five',
      '            line 6',
      '            line 7',
      '            # (2 unchanged lines hidden)',
      '        EOT',
    ]);
  });

  it('shows a change of kind as removal and addition', () => {
    const out = render(change({ before: { v: 'text' }, after: { v: { a: 1 } } }));
    expect(out).toContain('- v = "text"');
    expect(out).toContain('+ v = {');
  });

  it('quotes keys that are not identifiers', () => {
    const out = render(change({ before: { m: { 'a.b': 1 } }, after: { m: { 'a.b': 2 } } }));
    expect(out).toContain('~ "a.b" = 1 -> 2');
  });
});

describe('output diffs', () => {
  it('renders create, update, delete, unknown and sensitive outputs', () => {
    const lines = outputLines([
      { name: 'a', action: 'create', before: null, after: 'x', afterUnknown: false, sensitive: false },
      { name: 'bb', action: 'update', before: 1, after: 2, afterUnknown: false, sensitive: false },
      { name: 'c', action: 'delete', before: 'y', after: null, afterUnknown: false, sensitive: false },
      { name: 'd', action: 'create', before: null, after: null, afterUnknown: true, sensitive: false },
      { name: 'e', action: 'update', before: 'p1', after: 'p2', afterUnknown: false, sensitive: true },
      { name: 'f', action: 'noop', before: 1, after: 1, afterUnknown: false, sensitive: false },
    ]).map(layoutLine);
    expect(lines).toEqual([
      '  + a  = "x"',
      '  ~ bb = 1 -> 2',
      '  - c  = "y" -> null',
      '  + d  = (known after apply)',
      '  ~ e  = (sensitive value)',
    ]);
  });
});
