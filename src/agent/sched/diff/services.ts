import type { ObjectDiff } from './types';
import { genericObjectDiff } from './generic';
import { asObjList, str, type Obj } from './json';
import { collect, freeMapDiff, keyedDiffs, sortObjectDiffs, stringSetDiff, structDiff } from './objects';

/* Services and their checks. */

function serviceDiff(o: Obj | null, n: Obj | null, contextual: boolean): ObjectDiff | null {
  return structDiff(
    o,
    n,
    {
      name: 'Service',
      children: (a, b, ctx) =>
        collect(
          stringSetDiff(a.CanaryTags, b.CanaryTags, 'CanaryTags', ctx),
          stringSetDiff(a.Tags, b.Tags, 'Tags', ctx),
          checkDiffs(a.Checks, b.Checks, ctx),
          genericObjectDiff(a.Connect, b.Connect, 'Connect', ctx),
        ),
    },
    contextual,
  );
}

/**
 * Services have no stable identity, so each old service is matched to the best-scoring unmatched new
 * one (same name counts most, then port label, then position), as Nomad does; a move in the list
 * therefore is not reported as a change.
 */
export function serviceDiffs(oldList: unknown, newList: unknown, contextual: boolean): ObjectDiff[] {
  const olds = asObjList(oldList);
  const news = asObjList(newList);
  if (olds.length === 1 && news.length === 1) {
    const d = serviceDiff(olds[0]!, news[0]!, contextual);
    return d ? [d] : [];
  }
  const newMatched = news.map(() => false);
  const out: ObjectDiff[] = [];
  olds.forEach((svc, index) => {
    const match = findServiceMatch(svc, index, news, newMatched);
    if (match < 0) {
      const d = serviceDiff(svc, null, contextual);
      if (d) out.push(d);
      return;
    }
    newMatched[match] = true;
    const d = serviceDiff(svc, news[match]!, contextual);
    if (d) out.push(d);
  });
  news.forEach((svc, i) => {
    if (newMatched[i]) return;
    const d = serviceDiff(null, svc, contextual);
    if (d) out.push(d);
  });
  return sortObjectDiffs(out);
}

const MIN_MATCH_SCORE = 2;

function findServiceMatch(svc: Obj, index: number, candidates: Obj[], matched: boolean[]): number {
  let best = 0;
  let bestIndex = -1;
  candidates.forEach((c, i) => {
    if (matched[i]) return;
    let score = 0;
    if (i === index) score += 1;
    if (str(c.PortLabel) === str(svc.PortLabel)) score += 2;
    if (str(c.Name) === str(svc.Name)) score += 3;
    if (score > MIN_MATCH_SCORE && score > best) {
      best = score;
      bestIndex = i;
    }
  });
  return bestIndex;
}

function checkDiffs(oldList: unknown, newList: unknown, contextual: boolean): ObjectDiff[] {
  return keyedDiffs(
    oldList,
    newList,
    (c) => str(c.Name),
    (o, n) =>
      structDiff(
        o,
        n,
        {
          name: 'Check',
          children: (a, b, ctx) =>
            collect(
              freeMapDiff(a.Header, b.Header, 'Header', ctx),
              structDiff(a.CheckRestart, b.CheckRestart, { name: 'CheckRestart' }, ctx),
            ),
        },
        contextual,
      ),
  );
}
