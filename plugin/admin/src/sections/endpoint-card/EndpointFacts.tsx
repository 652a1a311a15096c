import { __ } from '@wordpress/i18n';
import type { Endpoint } from '../../api/webhooks';
import { eventTypeLabel } from '../../components/EventTypeCheckboxes';
import { formatDateTime } from '../../components/format';
import { DisabledFacts } from './DisabledFacts';
import { HealthFacts } from './HealthFacts';
import { SigningSecretFact } from './SigningSecretFact';

function yesNo( value: boolean ): string {
	return value ? __( 'Yes', 'service-integration' ) : __( 'No', 'service-integration' );
}

/** What the card tells of its endpoint: settings, secret, health, and why it is failing or disabled. */
export function EndpointFacts( { endpoint }: { endpoint: Endpoint } ) {
	return (
		<dl className="si-facts">
			{ endpoint.description ? (
				<>
					<dt>{ __( 'Description', 'service-integration' ) }</dt>
					<dd>{ endpoint.description }</dd>
				</>
			) : null }
			<dt>{ __( 'Events', 'service-integration' ) }</dt>
			<dd>
				{ endpoint.event_types.length
					? endpoint.event_types.map( eventTypeLabel ).join( ', ' )
					: __( 'All events', 'service-integration' ) }
			</dd>
			<SigningSecretFact secrets={ endpoint.secrets } />
			<dt>{ __( 'WooCommerce headers', 'service-integration' ) }</dt>
			<dd>{ yesNo( endpoint.wc_compat_signature ) }</dd>
			<dt>{ __( 'Send again on recovery', 'service-integration' ) }</dt>
			<dd className="si-endpoint__resend-on-recovery">{ yesNo( endpoint.resend_failed_on_recovery ) }</dd>
			<HealthFacts health={ endpoint.health } />
			{ endpoint.failing_since ? (
				<>
					<dt>{ __( 'Failing since', 'service-integration' ) }</dt>
					<dd>{ formatDateTime( endpoint.failing_since ) }</dd>
				</>
			) : null }
			<DisabledFacts endpoint={ endpoint } />
		</dl>
	);
}
