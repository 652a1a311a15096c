import type { Completion } from './deliveries';
import type { Endpoint } from './endpoints';
import { failingDisableReason, nextHealth, type AutoDisable } from './health';
import type { StreakEnd, StreakEndCounts } from './recovery';

/** An attempt that ended, as the dispatcher hands it to the store's round. */
export interface FinishedAttempt {
	completion: Completion;
	/**
	 * The endpoint as the dispatcher's cache holds it. The embedded store has one writer, so the
	 * cache is what the file holds and the round uses it; the shared store reads it again under lock.
	 */
	endpoint: Endpoint | undefined;
	succeeded: boolean;
	/** The retry policy's 410 verdict: the reason to disable the endpoint for. */
	gone: string | null;
}

/** What the round's health step reads (a part of RoundInput). */
export interface HealthInput {
	now: number;
	/** Attempts to record, each moving its endpoint's health (model/health.ts). */
	finished: FinishedAttempt[];
	disableAfterMs: number;
}

/** What the round's health step reads and fills (a part of RoundResult). */
export interface HealthResult {
	/** Per finished attempt, in order: whether it was recorded (the delivery may be gone, or no longer ours). */
	recorded: boolean[];
	/** The endpoints' streaks after the round, for the dispatcher's cache. */
	failingSince: Map< string, number | null >;
	/** Endpoints the round disabled, each with its notice queued. */
	disabled: { endpointId: string; disable: AutoDisable }[];
	/** Endpoints whose failure streak the round ended, with what it queued again (model/recovery.ts). */
	recovered: StreakEnd[];
}

/**
 * What the round's health step asks its store to write, one request at a time, each in the
 * store's own SQL (on SQLite inside the round's transaction, on the shared store each its own):
 *  - `clear`: end the endpoint's streak (model/recovery.ts); answers what it queued again, or
 *    null when no streak ran (another instance ended it);
 *  - `mark`: start the streak unless one runs; answers when it began (possibly earlier, started
 *    by another instance), or null when the endpoint is gone;
 *  - `disable`: read the endpoint's row (locked) and, if it is still active and `disableFor`
 *    gives a reason for the streak the row holds, disable it with its notice; answers whether it did.
 */
export type HealthWrite =
	| { write: 'clear'; endpointId: string }
	| { write: 'mark'; endpointId: string }
	| { write: 'disable'; endpointId: string; disableFor: ( failingSince: number | null ) => AutoDisable | null };

/** The store's answer to each write, by its name. */
export interface HealthAnswers {
	clear: StreakEndCounts | null;
	mark: number | null;
	disable: boolean;
}

export type HealthAnswer = HealthAnswers[ keyof HealthAnswers ];

export function emptyHealthResult(): HealthResult {
	return { recorded: [], failingSince: new Map(), disabled: [], recovered: [] };
}

/**
 * Record → health → disable, once for both stores: after the round has recorded its finished
 * attempts (`result.recorded`), each recorded attempt moves its endpoint's health by nextHealth
 * (model/health.ts), and the endpoint is disabled, with its notice, when the streak outlasted
 * the limit or it answered 410. Attempts of one endpoint share a round: each sees the streak as
 * the previous one left it, and once the endpoint is disabled the rest of its attempts move
 * nothing. Fills result.failingSince, .recovered and .disabled, and returns the endpoints the
 * round disabled (not to be claimed on).
 *
 * A generator, so that the algorithm is written once while each store runs its writes its own
 * way (synchronously in SQLite's transaction, awaited on the shared store): the store answers
 * each yielded HealthWrite with the HealthAnswers entry of its name (see runHealthSync/Async).
 */
export function* roundHealth(
	input: HealthInput,
	result: HealthResult
): Generator< HealthWrite, Set< string >, HealthAnswer > {
	const { now, disableAfterMs } = input;
	const disabled = new Set< string >();
	for ( const [ index, { completion, endpoint, succeeded, gone } ] of input.finished.entries() ) {
		const id = completion.endpointId;
		if ( ! result.recorded[ index ] || ! endpoint || disabled.has( id ) ) {
			continue; // not recorded (the delivery is gone, or no longer ours), or the endpoint is gone or off
		}
		const known = result.failingSince.has( id ) ? ( result.failingSince.get( id ) ?? null ) : endpoint.failingSince;
		const step = nextHealth( known, { succeeded, gone }, now, disableAfterMs );
		let since = step.failingSince;
		if ( step.write === 'clear' ) {
			// Before the round's claims: what is queued again goes ahead of the rest of its keys.
			const ended = ( yield { write: 'clear', endpointId: id } ) as HealthAnswers[ 'clear' ];
			if ( ended !== null ) {
				result.recovered.push( { endpointId: id, ...ended } );
			}
		} else if ( step.write === 'mark' || completion.status === 'failed' ) {
			// Possibly earlier: another instance may have started the streak. A delivery that ran out
			// of attempts marks it even when this round believes it runs: another instance may have
			// ended it just before this failure was committed, which that instance's re-send could
			// not see; the streak this starts again brings it back at the next recovery.
			since = ( yield { write: 'mark', endpointId: id } ) as HealthAnswers[ 'mark' ];
		}
		result.failingSince.set( id, since );
		if ( step.disable === null && failingDisableReason( since, now, disableAfterMs ) === null ) {
			continue;
		}
		let disable: AutoDisable | null = null;
		const disableFor = ( failingSince: number | null ): AutoDisable | null => {
			const failing = failingDisableReason( failingSince, now, disableAfterMs );
			disable =
				failing !== null
					? { reason: failing, kind: 'failing' }
					: gone === null
						? null
						: { reason: gone, kind: 'gone' };
			return disable;
		};
		const done = ( yield { write: 'disable', endpointId: id, disableFor } ) as HealthAnswers[ 'disable' ];
		if ( done && disable ) {
			disabled.add( id );
			result.disabled.push( { endpointId: id, disable } );
		}
	}
	return disabled;
}

/** Runs roundHealth with a store whose writes answer at once (SQLite, inside its transaction). */
export function runHealthSync(
	moves: Generator< HealthWrite, Set< string >, HealthAnswer >,
	write: ( request: HealthWrite ) => HealthAnswer
): Set< string > {
	let next = moves.next();
	while ( ! next.done ) {
		next = moves.next( write( next.value ) );
	}
	return next.value;
}

/** Runs roundHealth with a store whose writes are awaited (the shared store). */
export async function runHealthAsync(
	moves: Generator< HealthWrite, Set< string >, HealthAnswer >,
	write: ( request: HealthWrite ) => Promise< HealthAnswer >
): Promise< Set< string > > {
	let next = moves.next();
	while ( ! next.done ) {
		next = moves.next( await write( next.value ) );
	}
	return next.value;
}
