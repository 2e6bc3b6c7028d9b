/**
 * JSON request bodies with a nesting limit. Every part of the agent that walks a stored document
 * (copies, diffs, canonical forms, the plan) recurses once per level, so a body nested a few thousand
 * deep would overflow the stack on this request or, once stored, on every later read, plan or update
 * of it. The depth is measured on the text before JSON.parse, in one pass without recursion.
 */
import { HttpError } from './errors';

/**
 * Far above any real job or config entry (a task's driver Config is rarely ten deep), far below the
 * few thousand levels at which the agent's recursive walks overflow.
 */
export const MAX_JSON_DEPTH = 128;

/** Parses a request body; a body nested deeper than `maxDepth` or not JSON is a 400 saying so. */
export function parseJsonBody(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const depth = jsonDepth(text, maxDepth);
  if (depth > maxDepth) {
    throw new HttpError(
      400,
      `request body: nests objects and arrays more than ${maxDepth} deep (rule: max-depth ${maxDepth})`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError(400, `failed to parse JSON body: ${(err as Error).message}`);
  }
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of `{`/`[` outside strings, stopping once past `stopAbove`. Malformed text
 * gets some number back and JSON.parse reports what is wrong with it.
 */
export function jsonDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return deepest;
}
