/** One path segment, escaped: dispatched job IDs contain `/` (`<parent>/dispatch-<time>-<id>`). */
export function seg(value: string): string {
  return encodeURIComponent(value);
}
