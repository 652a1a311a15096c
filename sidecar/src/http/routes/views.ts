import { attemptErrorView } from '../../outbound/attempt-error';
import { maskSecret } from '../../secret-mask';
import type { Attempt, Delivery } from '../../model/deliveries';
import type { EndpointHealth } from '../../model/health';
import type { Endpoint } from '../../model/endpoints';
import type { StoredEvent } from '../../model/events';
import type {
	AttemptView,
	DeliveryView,
	EndpointHealthView,
	EndpointView,
	EventDetailsView,
} from '../../contracts/views';
import { HttpError } from '../errors';
import { iso } from './helpers';

/** API shapes (snake_case, ISO times). Secrets only ever leave masked, except once at creation/rotation. */
export function endpointView( endpoint: Endpoint, health: EndpointHealth ): EndpointView {
	return {
		id: endpoint.id,
		url: endpoint.url,
		description: endpoint.description,
		event_types: endpoint.eventTypes,
		status: endpoint.status,
		disabled_reason: endpoint.disabledReason,
		disabled_at: iso( endpoint.disabledAt ),
		disabled_by: endpoint.disabledBy,
		failing_since: iso( endpoint.failingSince ),
		max_concurrency: endpoint.maxConcurrency,
		wc_compat_signature: endpoint.wcCompatSignature,
		resend_failed_on_recovery: endpoint.resendFailedOnRecovery,
		secrets: endpoint.secrets.map( ( secret ) => ( {
			masked: maskSecret( secret.secret ),
			created_at: iso( secret.createdAt ),
			expires_at: iso( secret.expiresAt ),
		} ) ),
		created_at: iso( endpoint.createdAt ),
		updated_at: iso( endpoint.updatedAt ),
		health: healthView( health ),
	};
}

/** recent_success_rate: 0 to 1, null without recent attempts; last_error: the newest failed attempt among them. */
export function healthView( health: EndpointHealth ): EndpointHealthView {
	const error = health.lastError;
	return {
		recent_attempts: health.attempts,
		recent_success_rate:
			health.attempts === 0 ? null : Math.round( ( health.successes / health.attempts ) * 1000 ) / 1000,
		last_error: error ? attemptErrorView( error ) : null,
	};
}

export function deliveryView( delivery: Delivery ): DeliveryView {
	return {
		id: delivery.id,
		event_id: delivery.eventId,
		event_type: delivery.eventType,
		endpoint_id: delivery.endpointId,
		status: delivery.status,
		attempt_count: delivery.attemptCount,
		next_attempt_at: iso( delivery.nextAttemptAt ),
		last_status_code: delivery.lastStatusCode,
		last_error: delivery.lastError,
		resent_on_recovery_at: iso( delivery.resentOnRecoveryAt ),
		created_at: iso( delivery.createdAt ),
		updated_at: iso( delivery.updatedAt ),
	};
}

export function attemptView( attempt: Attempt ): AttemptView {
	return {
		attempt_number: attempt.attemptNumber,
		started_at: iso( attempt.startedAt ),
		duration_ms: attempt.durationMs,
		status_code: attempt.statusCode,
		error_code: attempt.errorCode,
		response_excerpt: attempt.responseExcerpt,
		next_attempt_at: iso( attempt.nextAttemptAt ),
		trigger: attempt.trigger,
	};
}

/** GET /v1/events/<id>: the event with its payload's data, and every delivery with its attempts. */
export function eventDetailsView(
	event: StoredEvent,
	deliveries: ( Delivery & { attempts: Attempt[] } )[]
): EventDetailsView {
	const { data } = JSON.parse( event.payload ) as { data: unknown };
	return {
		event: {
			id: event.id,
			type: event.type,
			timestamp: event.timestamp,
			ordering_key: event.orderingKey,
			received_at: new Date( event.receivedAt ).toISOString(),
			payload_cleared_at: iso( event.payloadClearedAt ),
			redacted_at: iso( event.redactedAt ),
			data,
		},
		deliveries: deliveries.map( ( delivery ) => ( {
			...deliveryView( delivery ),
			attempts: delivery.attempts.map( attemptView ),
		} ) ),
	};
}

/** The answer when no event has that id. */
export function eventNotFound( id: string ): HttpError {
	return new HttpError( 404, 'event_not_found', `No event with id "${ id }".` );
}
