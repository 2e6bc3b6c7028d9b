import type { ObjectDiff } from './types';
import { asObjList, str, type Obj } from './json';
import { collect, primitiveObjectDiff, sortObjectDiffs, stringSetDiff, structDiff } from './objects';

/* Templates, matched by destination path as Nomad's Template.DiffID does. */

function templateDiff(o: Obj | null, n: Obj | null, contextual: boolean): ObjectDiff | null {
  return structDiff(
    o,
    n,
    {
      name: 'Template',
      children: (a, b, ctx) =>
        collect(
          // Nomad names the wait block's diff "Template" too; kept so plans read the same.
          primitiveObjectDiff(a.Wait, b.Wait, [], 'Template', ctx),
          structDiff(
            a.ChangeScript,
            b.ChangeScript,
            {
              name: 'ChangeScript',
              children: (x, y, c) => collect(stringSetDiff(x.Args, y.Args, 'Args', c)),
            },
            ctx,
          ),
        ),
    },
    contextual,
  );
}

export function templateDiffs(oldList: unknown, newList: unknown, contextual: boolean): ObjectDiff[] {
  const olds = asObjList(oldList);
  const news = asObjList(newList);
  // A single template on both sides is the same template whatever its path.
  if (olds.length === 1 && news.length === 1) {
    const d = templateDiff(olds[0]!, news[0]!, contextual);
    return d ? [d] : [];
  }
  const matched = news.map(() => false);
  const out: ObjectDiff[] = [];
  for (const t of olds) {
    const i = news.findIndex((c, idx) => !matched[idx] && str(c.DestPath) === str(t.DestPath));
    if (i >= 0) matched[i] = true;
    const d = templateDiff(t, i >= 0 ? news[i]! : null, contextual);
    if (d) out.push(d);
  }
  news.forEach((t, i) => {
    if (matched[i]) return;
    const d = templateDiff(null, t, contextual);
    if (d) out.push(d);
  });
  return sortObjectDiffs(out);
}
