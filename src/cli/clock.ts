// The wall clock, for the processes that render (the KRM function, hydrate, generate, render, diff, lint): the
// one place the project reads it. A render consults it only for bootstrap token lifetimes, and only when
// SOURCE_DATE_EPOCH is not set (src/cluster/renderTime.ts); everything else is a function of the input.
export const systemClock = (): number => Date.now();

/** Milliseconds from an arbitrary start that never goes back: for deadlines (lint's tools), never for output. */
export const monotonicClock = (): number => performance.now();
