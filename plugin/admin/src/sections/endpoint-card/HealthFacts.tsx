import { __, _n, sprintf } from '@wordpress/i18n';
import type { Endpoint } from '../../api/webhooks';
import { formatDateTime, formatPercent } from '../../components/format';

/** The endpoint's recent success rate and last error, when the sidecar reports its health. */
export function HealthFacts( { health }: { health: Endpoint[ 'health' ] } ) {
	if ( ! health ) {
		return null;
	}
	const rate = typeof health.recent_success_rate === 'number' ? health.recent_success_rate : null;
	const lastError = health.last_error ?? null;
	return (
		<>
			<dt>{ __( 'Recent success rate', 'service-integration' ) }</dt>
			<dd className="si-endpoint__success-rate">
				{ rate === null
					? __( 'No attempt in the last 24 hours', 'service-integration' )
					: sprintf(
							/* translators: 1: a percentage, 2: number of attempts. */
							_n(
								'%1$s of the last %2$d attempt (24 hours)',
								'%1$s of the last %2$d attempts (24 hours)',
								health.recent_attempts,
								'service-integration'
							),
							formatPercent( rate ),
							health.recent_attempts
						) }
			</dd>
			<dt>{ __( 'Last error', 'service-integration' ) }</dt>
			<dd className="si-endpoint__last-error">
				{ lastError
					? sprintf(
							/* translators: 1: date and time, 2: the error, such as an HTTP status with the start of the answer. */ __(
								'%1$s — %2$s',
								'service-integration'
							),
							formatDateTime( lastError.at ),
							lastError.message
						)
					: __( 'None among the recent attempts', 'service-integration' ) }
			</dd>
		</>
	);
}
