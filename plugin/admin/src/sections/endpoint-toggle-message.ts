import { __, _n, sprintf } from '@wordpress/i18n';

/**
 * What disabling or enabling an endpoint did: a disable cancels its queued deliveries; an
 * enable says how many it requeued, or how many it missed and did not send.
 */
export function endpointToggleMessage( enabled: boolean, requeued: number, skipped: number ): string {
	if ( ! enabled ) {
		return __(
			'Endpoint disabled; its queued deliveries are cancelled. Enabling it again sends what it missed only if you ask.',
			'service-integration'
		);
	}
	if ( skipped > 0 ) {
		return sprintf(
			/* translators: %d: number of deliveries not sent. */
			_n(
				'Endpoint enabled; %d delivery it missed while disabled was not sent. To send it, disable the endpoint and use “Enable and resend”.',
				'Endpoint enabled; %d deliveries it missed while disabled were not sent. To send them, disable the endpoint and use “Enable and resend”.',
				skipped,
				'service-integration'
			),
			skipped
		);
	}
	return sprintf(
		/* translators: %d: number of deliveries sent again. */ _n(
			'Endpoint enabled; %d delivery requeued.',
			'Endpoint enabled; %d deliveries requeued.',
			requeued,
			'service-integration'
		),
		requeued
	);
}
