import { __, _x } from '@wordpress/i18n';
import type { Endpoint } from '../../api/webhooks';
import { formatDateTime } from '../../components/format';

/** When and why a disabled endpoint was disabled; after an automatic disable, that its events are kept. */
export function DisabledFacts( { endpoint }: { endpoint: Endpoint } ) {
	if ( endpoint.status === 'active' ) {
		return null;
	}
	return (
		<>
			<dt>{ _x( 'Disabled', 'when the endpoint was disabled, and why', 'service-integration' ) }</dt>
			<dd>
				{ formatDateTime( endpoint.disabled_at ) }
				{ endpoint.disabled_reason ? ` — ${ endpoint.disabled_reason }` : null }
			</dd>
			{ endpoint.disabled_by === 'auto' ? (
				<dd className="si-endpoint__held">
					{ __(
						'Its events are kept, none is lost. Once the receiver is fixed, enabling the endpoint again sends what it missed, in order.',
						'service-integration'
					) }
				</dd>
			) : null }
		</>
	);
}
