/**
 * The outbox: the order events WordPress keeps until the sidecar acknowledges them
 * (plugin/includes/Rest/class-outbox-controller.php). They live in WordPress's database, so
 * this answers even when the sidecar does not.
 */
import { __, sprintf } from '@wordpress/i18n';
import { ApiError, request, requestAnswer } from './client';
import { codeMessage } from './code-messages';
import type { OutboxState } from './generated/views';

export type { OutboxState };

export function getOutbox(): Promise< OutboxState > {
	return request< OutboxState >( 'GET', '/webhooks/outbox' );
}

/**
 * Hands the waiting events over now (the every-minute job does it too) and answers the
 * outbox's state after it. When it stopped (409 another hand-over is running, 503 the sidecar
 * did not take them), rejects with the code the state names and its message in the site's
 * language.
 */
export async function handOverNow(): Promise< OutboxState > {
	const { status, body } = await requestAnswer< OutboxState >( 'POST', '/webhooks/outbox' );
	if ( status < 400 ) {
		return body;
	}
	const code = body.error ?? 'unknown_error';
	const message =
		code === 'hand_over_in_progress'
			? __( 'Another hand-over is running right now; try again in a moment.', 'service-integration' )
			: ( codeMessage( code ) ??
				sprintf(
					/* translators: %s: error code. */ __(
						'The sidecar did not take the events (%s).',
						'service-integration'
					),
					code
				) );
	throw new ApiError( code, message, status );
}

/** The outbox's MySQL datetimes (UTC, "2026-11-29 10:00:00") as ISO 8601. */
export function mysqlUtcToIso( value: string | null ): string | null {
	return value ? `${ value.replace( ' ', 'T' ) }Z` : null;
}
