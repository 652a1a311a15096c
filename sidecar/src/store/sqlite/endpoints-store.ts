import { newEndpointId, EnableResult, EndpointPatch, NewEndpoint, Endpoint } from '../../model/endpoints';
import type { DisabledBy, EndpointStatus, EventType } from '../../contracts/constants';
import { GUARD_REFUSAL_CODE, type StreakEndCounts } from '../../model/recovery';
import { NOT_A_TEST_EVENT_SQL } from '../../model/events';
import type { Db } from './database';
import { ENDPOINT_BACKLOG_INLINE_ROWS } from '../endpoint-backlog';
import { PAYLOAD_HELD } from './deliveries-store';

interface EndpointRow {
	id: string;
	url: string;
	description: string;
	event_types: string;
	status: EndpointStatus;
	disabled_reason: string | null;
	disabled_at: number | null;
	disabled_by: DisabledBy | null;
	failing_since: number | null;
	max_concurrency: number;
	wc_compat_signature: number;
	resend_failed_on_recovery: number;
	created_at: number;
	updated_at: number;
}

interface SecretRow {
	endpoint_id: string;
	secret: string;
	created_at: number;
	expires_at: number | null;
}

/** Endpoints and their secrets; enabling/disabling also moves the endpoint's queued deliveries. */
export class EndpointsStore {
	private readonly statements;

	constructor( private readonly db: Db ) {
		this.statements = {
			insert: db.prepare(
				`INSERT INTO endpoints (id, url, description, event_types, status, max_concurrency, wc_compat_signature, resend_failed_on_recovery, created_at, updated_at)
				 VALUES (@id, @url, @description, @event_types, 'active', @max_concurrency, @wc_compat_signature, @resend_failed_on_recovery, @now, @now)`
			),
			insertSecret: db.prepare(
				'INSERT INTO endpoint_secrets (endpoint_id, secret, created_at, expires_at) VALUES (?, ?, ?, NULL)'
			),
			// A deleted endpoint (deleted_at set) is gone for every reader; only EndpointBacklog sees it.
			get: db.prepare( 'SELECT * FROM endpoints WHERE id = ? AND deleted_at IS NULL' ),
			list: db.prepare( 'SELECT * FROM endpoints WHERE deleted_at IS NULL ORDER BY created_at, id' ),
			secretsOf: db.prepare(
				'SELECT * FROM endpoint_secrets WHERE endpoint_id = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC, id DESC'
			),
			allSecrets: db.prepare(
				'SELECT * FROM endpoint_secrets WHERE expires_at IS NULL OR expires_at > ? ORDER BY created_at DESC, id DESC'
			),
			update: db.prepare(
				`UPDATE endpoints SET url = @url, description = @description, event_types = @event_types,
				 max_concurrency = @max_concurrency, wc_compat_signature = @wc_compat_signature,
				 resend_failed_on_recovery = @resend_failed_on_recovery, updated_at = @now WHERE id = @id`
			),
			delete: db.prepare( 'DELETE FROM endpoints WHERE id = ?' ),
			// Up to a bound: the rest of a large queue goes in the background (EndpointBacklog).
			deleteDeliveries: db.prepare(
				'DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries WHERE endpoint_id = ? LIMIT ?)'
			),
			markDeleted: db.prepare(
				`UPDATE endpoints SET status = 'disabled', deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`
			),
			touch: db.prepare( 'UPDATE endpoints SET updated_at = ? WHERE id = ?' ),
			expireCurrentSecrets: db.prepare(
				'UPDATE endpoint_secrets SET expires_at = ? WHERE endpoint_id = ? AND expires_at IS NULL'
			),
			dropExpiredSecrets: db.prepare(
				'DELETE FROM endpoint_secrets WHERE endpoint_id = ? AND expires_at IS NOT NULL AND expires_at <= ?'
			),
			disable: db.prepare(
				`UPDATE endpoints SET status = 'disabled', disabled_reason = ?, disabled_by = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND status = 'active'`
			),
			// Queued work stops with the endpoint (enable() brings it back), up to a bound: the rest of a
			// large queue is cancelled in the background (EndpointBacklog); the dispatcher claims none of it.
			cancelPending: db.prepare(
				`UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, last_error = ?, updated_at = ?
				 WHERE id IN (SELECT id FROM deliveries WHERE endpoint_id = ? AND status = 'pending' LIMIT ?)`
			),
			enable: db.prepare(
				`UPDATE endpoints SET status = 'active', disabled_reason = NULL, disabled_at = NULL, disabled_by = NULL, failing_since = NULL,
				 updated_at = ? WHERE id = ? AND status = 'disabled'`
			),
			// What failed or was cancelled during the failing run and the disable (and still has its payload).
			requeueSince: db.prepare(
				`UPDATE deliveries SET status = 'pending', next_attempt_at = @now, cycle_attempts = 0, next_trigger = 'manual', updated_at = @now
				 WHERE endpoint_id = @id AND status IN ('failed', 'cancelled') AND updated_at >= @since
				   AND ${ PAYLOAD_HELD }`
			),
			countSince: db.prepare(
				`SELECT COUNT(*) AS n FROM deliveries WHERE endpoint_id = @id AND status IN ('failed', 'cancelled') AND updated_at >= @since
				   AND ${ PAYLOAD_HELD }`
			),
			// Events that arrived while the endpoint was disabled got no delivery for it: create
			// them, in order of arrival (rowid), for the types it subscribes to now ([] = all).
			insertMissed: db.prepare(
				`INSERT INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, created_at, updated_at)
				 SELECT e.id, @id, e.ordering_key, 'pending', @now, @now, @now FROM events e
				 WHERE e.received_at >= @disabledAt AND e.payload_cleared_at IS NULL AND ${ NOT_A_TEST_EVENT_SQL }
				   AND (json_array_length(@types) = 0 OR e.type IN (SELECT value FROM json_each(@types)))
				 ORDER BY e.rowid
				 ON CONFLICT (event_id, endpoint_id) DO NOTHING`
			),
			countMissed: db.prepare(
				`SELECT COUNT(*) AS n FROM events e
				 WHERE e.received_at >= @disabledAt AND e.payload_cleared_at IS NULL AND ${ NOT_A_TEST_EVENT_SQL }
				   AND (json_array_length(@types) = 0 OR e.type IN (SELECT value FROM json_each(@types)))
				   AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.endpoint_id = @id)`
			),
			failingBefore: db.prepare(
				`SELECT id FROM endpoints WHERE status = 'active' AND failing_since IS NOT NULL AND failing_since <= ? ORDER BY failing_since`
			),
			markFailing: db.prepare( 'UPDATE endpoints SET failing_since = ? WHERE id = ? AND failing_since IS NULL' ),
			clearFailing: db.prepare(
				'UPDATE endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL'
			),
			// The re-send on recovery (model/recovery.ts): what ran out of attempts during the streak.
			resendOnRecovery: db.prepare(
				`UPDATE deliveries SET status = 'pending', next_attempt_at = @now, cycle_attempts = 0, next_trigger = 'scheduled',
				   resent_on_recovery_at = @now, updated_at = @now
				 WHERE endpoint_id = @id AND status = 'failed' AND updated_at >= @since
				   AND event_id IN (SELECT id FROM events WHERE payload_cleared_at IS NULL)
				   AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.delivery_id = deliveries.id
				     AND a.attempt_number = deliveries.attempt_count AND a.error_code = @refused)`
			),
			// Also on recovery: the retries waiting for later are due now (the deliveries_due index).
			retriesDueNow: db.prepare(
				`UPDATE deliveries SET next_attempt_at = @now
				 WHERE endpoint_id = @id AND status = 'pending' AND next_attempt_at > @now`
			),
			counts: db.prepare(
				'SELECT status, COUNT(*) AS n FROM endpoints WHERE deleted_at IS NULL GROUP BY status'
			),
		};
	}

	create( input: NewEndpoint, now: number ): Endpoint {
		const id = newEndpointId();
		this.db
			.transaction( () => {
				this.statements.insert.run( {
					id,
					url: input.url,
					description: input.description,
					event_types: JSON.stringify( input.eventTypes ),
					max_concurrency: input.maxConcurrency,
					wc_compat_signature: input.wcCompatSignature ? 1 : 0,
					resend_failed_on_recovery: input.resendFailedOnRecovery === false ? 0 : 1,
					now,
				} );
				this.statements.insertSecret.run( id, input.secret, now );
			} )
			.immediate();
		return this.get( id, now ) as Endpoint;
	}

	get( id: string, now: number ): Endpoint | undefined {
		const row = this.statements.get.get( id ) as EndpointRow | undefined;
		return row ? toEndpoint( row, this.statements.secretsOf.all( id, now ) as SecretRow[] ) : undefined;
	}

	list( now: number ): Endpoint[] {
		const secrets = new Map< string, SecretRow[] >();
		for ( const secret of this.statements.allSecrets.all( now ) as SecretRow[] ) {
			secrets.set( secret.endpoint_id, [ ...( secrets.get( secret.endpoint_id ) ?? [] ), secret ] );
		}
		return ( this.statements.list.all() as EndpointRow[] ).map( ( row ) =>
			toEndpoint( row, secrets.get( row.id ) ?? [] )
		);
	}

	update( id: string, patch: EndpointPatch, now: number ): Endpoint | undefined {
		const current = this.get( id, now );
		if ( ! current ) {
			return undefined;
		}
		this.statements.update.run( {
			id,
			url: patch.url ?? current.url,
			description: patch.description ?? current.description,
			event_types: JSON.stringify( patch.eventTypes ?? current.eventTypes ),
			max_concurrency: patch.maxConcurrency ?? current.maxConcurrency,
			wc_compat_signature: ( patch.wcCompatSignature ?? current.wcCompatSignature ) ? 1 : 0,
			resend_failed_on_recovery: ( patch.resendFailedOnRecovery ?? current.resendFailedOnRecovery ) ? 1 : 0,
			now,
		} );
		return this.get( id, now );
	}

	/**
	 * Deletes the endpoint with its deliveries and attempts (events stay), in the caller's
	 * transaction: at once when it has few deliveries; otherwise it is marked deleted (gone for
	 * every reader, disabled) and EndpointBacklog removes the rest in batches, then the row.
	 */
	delete( id: string, now: number ): boolean {
		return this.atomically( () => {
			if ( ! this.statements.get.get( id ) ) {
				return false;
			}
			const removed = this.statements.deleteDeliveries.run( id, ENDPOINT_BACKLOG_INLINE_ROWS ).changes;
			if ( removed < ENDPOINT_BACKLOG_INLINE_ROWS ) {
				this.statements.delete.run( id );
			} else {
				this.statements.markDeleted.run( now, now, id );
			}
			return true;
		} );
	}

	/** New current secret; the old one keeps signing until now + graceMs. */
	rotateSecret( id: string, secret: string, graceMs: number, now: number ): Endpoint | undefined {
		const done = this.db
			.transaction( () => {
				if ( ! this.statements.get.get( id ) ) {
					return false;
				}
				this.statements.dropExpiredSecrets.run( id, now );
				this.statements.expireCurrentSecrets.run( now + graceMs, id );
				this.statements.insertSecret.run( id, secret, now );
				this.statements.touch.run( now, id );
				return true;
			} )
			.immediate();
		return done ? this.get( id, now ) : undefined;
	}

	/**
	 * Disables an active endpoint and cancels its queued deliveries; false if it was not
	 * active. Runs in the caller's transaction if there is one (the dispatcher writes the
	 * notice to WordPress in the same one).
	 */
	disable( id: string, reason: string, by: DisabledBy, now: number ): boolean {
		return this.atomically( () => {
			if ( this.statements.disable.run( reason, by, now, now, id ).changes === 0 ) {
				return false;
			}
			this.statements.cancelPending.run(
				`endpoint disabled: ${ reason }`,
				now,
				id,
				ENDPOINT_BACKLOG_INLINE_ROWS
			);
			return true;
		} );
	}

	/**
	 * Re-enables a disabled endpoint. With `redeliver` (the default after an automatic
	 * disable, not after the owner's), everything the endpoint missed goes out again, in
	 * order: deliveries that failed or were cancelled since its failure streak began
	 * (retries give up after about a day, the disable comes days later) and events that
	 * arrived while it was disabled. Without it, `skipped` says how many were left out.
	 */
	enable( id: string, now: number, redeliver?: boolean ): EnableResult {
		return this.db
			.transaction( (): EnableResult => {
				const row = this.statements.get.get( id ) as EndpointRow | undefined;
				if ( ! row || row.status !== 'disabled' ) {
					return { enabled: false, redelivered: false, requeued: 0, missed: 0, skipped: 0 };
				}
				const disabledAt = row.disabled_at ?? now;
				const params = {
					id,
					now,
					since: Math.min( row.failing_since ?? disabledAt, disabledAt ),
					disabledAt,
					types: row.event_types,
				};
				const send = redeliver ?? row.disabled_by !== 'owner';
				this.statements.enable.run( now, id );
				if ( ! send ) {
					const skipped =
						( this.statements.countSince.get( params ) as { n: number } ).n +
						( this.statements.countMissed.get( params ) as { n: number } ).n;
					return { enabled: true, redelivered: false, requeued: 0, missed: 0, skipped };
				}
				const requeued = this.statements.requeueSince.run( params ).changes;
				const missed = this.statements.insertMissed.run( params ).changes;
				return { enabled: true, redelivered: true, requeued, missed, skipped: 0 };
			} )
			.immediate();
	}

	/** Active endpoints failing without a success since `before` or earlier. */
	failingBefore( before: number ): string[] {
		return ( this.statements.failingBefore.all( before ) as { id: string }[] ).map( ( row ) => row.id );
	}

	/** Runs fn in the caller's transaction, or in a new one. */
	private atomically< T >( fn: () => T ): T {
		return this.db.inTransaction ? fn() : this.db.transaction( fn ).immediate();
	}

	/** Records the start of a failure streak; returns nothing, the caller keeps its own copy. */
	markFailing( id: string, now: number ): void {
		this.statements.markFailing.run( now, id );
	}

	/**
	 * A success: the failure streak is over, and what ran out of attempts during it is queued
	 * again if the endpoint says so, and its waiting retries are due now (model/recovery.ts).
	 * Runs in the caller's transaction if there is one (the dispatcher's round). Null if no
	 * streak ran.
	 */
	clearFailing( id: string, now: number ): StreakEndCounts | null {
		return this.atomically( () => {
			const row = this.statements.get.get( id ) as EndpointRow | undefined;
			if ( ! row || row.failing_since === null ) {
				return null;
			}
			this.statements.clearFailing.run( id );
			const resent =
				row.resend_failed_on_recovery === 1
					? this.statements.resendOnRecovery.run( {
							id,
							now,
							since: row.failing_since,
							refused: GUARD_REFUSAL_CODE,
						} ).changes
					: 0;
			return { resent, retriesDueNow: this.statements.retriesDueNow.run( { id, now } ).changes };
		} );
	}

	counts(): { active: number; disabled: number } {
		const counts = { active: 0, disabled: 0 };
		for ( const row of this.statements.counts.all() as { status: EndpointStatus; n: number }[] ) {
			counts[ row.status ] = row.n;
		}
		return counts;
	}
}

function toEndpoint( row: EndpointRow, secrets: SecretRow[] ): Endpoint {
	return {
		id: row.id,
		url: row.url,
		description: row.description,
		eventTypes: JSON.parse( row.event_types ) as EventType[],
		status: row.status,
		disabledReason: row.disabled_reason,
		disabledAt: row.disabled_at,
		disabledBy: row.disabled_by,
		failingSince: row.failing_since,
		maxConcurrency: row.max_concurrency,
		wcCompatSignature: row.wc_compat_signature === 1,
		resendFailedOnRecovery: row.resend_failed_on_recovery === 1,
		createdAt: row.created_at,
		updatedAt: row.updated_at,
		secrets: secrets.map( ( secret ) => ( {
			secret: secret.secret,
			createdAt: secret.created_at,
			expiresAt: secret.expires_at,
		} ) ),
	};
}
