/**
 * The agent's timers beyond what setTimeout holds (2^31-1 ms, about 24.8 days): Node fires a longer
 * delay after 1 ms, which made a `run_for = "10000h"` task exit at once. Jest's fake timers keep
 * Node's overflow rule, so days pass here in an instant with the same behaviour as real timers.
 */
import { Clock, MAX_TIMER_MS } from '../../../src/agent/clock';

const HOUR_NS = 3600e9;
const DAY_MS = 86_400_000;

beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

test('the fake timers overflow as Node does (so the tests below can fail)', () => {
  const fn = jest.fn();
  setTimeout(fn, MAX_TIMER_MS + 1);
  jest.advanceTimersByTime(2);
  expect(fn).toHaveBeenCalled();
});

test.each([
  ['at time scale 1', 1, 10_000 * HOUR_NS, 10_000 * 3_600_000],
  ['at time scale 0.01', 0.01, 1_000_000 * HOUR_NS, 10_000 * 3_600_000],
])('after() waits out a duration past 24.8 days %s', (_, scale, ns, realMs) => {
  const clock = new Clock(scale);
  const fn = jest.fn();
  clock.after(ns, fn);
  jest.advanceTimersByTime(MAX_TIMER_MS + 1);
  expect(fn).not.toHaveBeenCalled();
  jest.advanceTimersByTime(realMs - MAX_TIMER_MS - 2);
  expect(fn).not.toHaveBeenCalled();
  jest.advanceTimersByTime(2);
  expect(fn).toHaveBeenCalledTimes(1);
  clock.stop();
});

test('at() fires at a wall-clock time a year ahead, not before', () => {
  const clock = new Clock();
  const fn = jest.fn();
  const when = Date.now() + 365 * DAY_MS;
  clock.at(when, fn);
  jest.advanceTimersByTime(364 * DAY_MS);
  expect(fn).not.toHaveBeenCalled();
  jest.advanceTimersByTime(DAY_MS);
  expect(fn).toHaveBeenCalledTimes(1);
  expect(Date.now()).toBeGreaterThanOrEqual(when);
});

test('at() for a time already past fires on the next turn, never inside the caller', () => {
  const clock = new Clock();
  const fn = jest.fn();
  clock.at(Date.now() - 1000, fn);
  expect(fn).not.toHaveBeenCalled();
  jest.advanceTimersByTime(0);
  expect(fn).toHaveBeenCalledTimes(1);
});

test('cancel and stop reach a timer that has already been re-armed', () => {
  const clock = new Clock();
  const cancelled = jest.fn();
  const stopped = jest.fn();
  const cancel = clock.after(60 * DAY_MS * 1e6, cancelled);
  clock.after(60 * DAY_MS * 1e6, stopped);
  jest.advanceTimersByTime(30 * DAY_MS);
  cancel();
  clock.stop();
  jest.advanceTimersByTime(60 * DAY_MS);
  expect(cancelled).not.toHaveBeenCalled();
  expect(stopped).not.toHaveBeenCalled();
  expect(jest.getTimerCount()).toBe(0);
});
