import type { Cancel, Clock } from '../../../sidecar/src/outbound/clock';
import { waitUntil } from '../../support/wait-until';

/**
 * Where the clock starts: a minute ahead of the wall clock, so that what the API stores with
 * Date.now() (a notice queued by an endpoint route, a replay's due time) is already due for the
 * workers, as it is with the system clock.
 */
const AHEAD_OF_WALL_CLOCK_MS = 60_000;

interface Timer {
	at: number;
	order: number;
	fn: () => void;
}

/**
 * A clock for the outbound workers that moves only when a test says so: advance(ms) fires the
 * timers that come due, in order, and lets what they start run. So a test asserts that nothing
 * happens before a due time by advancing to just before it, instead of sleeping and hoping.
 *
 * Injected (Clock) rather than jest's fake timers: those replace the process's own setTimeout,
 * setImmediate and Date, which the HTTP receivers, the delivery client's timeouts, the MariaDB
 * driver and waitUntil() need to run on real time; even with `doNotFake`, a faked Date moves the
 * API's timestamps and the store's with the workers'. This one moves the three workers' time only.
 */
export class ManualClock implements Clock {
	private current: number;
	private timers: Timer[] = [];
	private scheduled = 0;

	constructor( start = Date.now() + AHEAD_OF_WALL_CLOCK_MS ) {
		this.current = start;
	}

	now(): number {
		return this.current;
	}

	schedule( ms: number, fn: () => void ): Cancel {
		const timer = { at: this.current + Math.max( 0, ms ), order: this.scheduled++, fn };
		this.timers.push( timer );
		return () => {
			this.timers = this.timers.filter( ( other ) => other !== timer );
		};
	}

	/** When the timers still to fire are due, earliest first. */
	pending(): number[] {
		return this.sorted().map( ( timer ) => timer.at );
	}

	/** Moves the time ms forward, firing each timer due by then at its own time, in order. */
	async advance( ms: number ): Promise< void > {
		const target = this.current + ms;
		for (;;) {
			const next = this.sorted()[ 0 ];
			if ( next === undefined || next.at > target ) {
				break;
			}
			this.timers = this.timers.filter( ( other ) => other !== next );
			this.current = Math.max( this.current, next.at );
			next.fn();
			await turns();
		}
		this.current = target;
		await turns();
	}

	/**
	 * Moves the time stepMs at a time until `done` holds. A step of 0 still fires what came due
	 * meanwhile: a worker that finishes its I/O after an advance arms its timer for a time already
	 * reached, and that timer fires at the next advance.
	 */
	async advanceUntil( done: () => boolean | Promise< boolean >, what: string, stepMs = 0 ): Promise< void > {
		await waitUntil(
			async () => {
				await this.advance( stepMs );
				return done();
			},
			10_000,
			what
		);
	}

	private sorted(): Timer[] {
		return [ ...this.timers ].sort( ( a, b ) => a.at - b.at || a.order - b.order );
	}
}

/**
 * A few turns of the event loop: a timer's work (a round on SQLite, a kick) gets under way. What
 * waits on real I/O (an HTTP request, MariaDB) is awaited by the test with waitUntil().
 */
async function turns(): Promise< void > {
	for ( let turn = 0; turn < 5; turn++ ) {
		await new Promise( ( resolve ) => setImmediate( resolve ) );
	}
}
