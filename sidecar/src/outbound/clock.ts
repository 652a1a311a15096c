/** Cancels what Clock.schedule() scheduled; harmless once it ran or was cancelled. */
export type Cancel = () => void;

/**
 * The time the outbound workers (dispatcher, notice sender, maintenance) decide by: what is
 * due, lease ends, poll and upkeep cadence, back-off, shutdown deadlines. Injected so that
 * tests move it by hand (tests/sidecar/support/manual-clock.ts) instead of sleeping.
 */
export interface Clock {
	/** Milliseconds since the epoch, as Date.now(). */
	now: () => number;
	/** Runs fn once, ms from now; never keeps the process alive by itself. */
	schedule: ( ms: number, fn: () => void ) => Cancel;
}

// setTimeout's ceiling (~24.8 days): a later deadline fires early, and callers check now() again.
const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
	now: () => Date.now(),
	schedule( ms, fn ) {
		const timer = setTimeout( fn, Math.min( Math.max( 0, ms ), MAX_TIMER_MS ) );
		timer.unref();
		return () => clearTimeout( timer );
	},
};

/** For a cancel handle that may not be set yet. */
export const noCancel: Cancel = () => undefined;
