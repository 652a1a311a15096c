import { _x } from '@wordpress/i18n';
import type { Endpoint } from '../../api/webhooks';
import { StatusBadge } from '../../components/StatusBadge';

/** The card's health, which its edge shows in the colour of its status badge. */
export function healthOf( endpoint: Endpoint ): 'healthy' | 'failing' | 'disabled' {
	if ( endpoint.status !== 'active' ) {
		return 'disabled';
	}
	return endpoint.failing_since ? 'failing' : 'healthy';
}

/** Active, active but failing, or disabled. */
export function EndpointStatusBadge( { endpoint }: { endpoint: Endpoint } ) {
	switch ( healthOf( endpoint ) ) {
		case 'failing':
			return (
				<StatusBadge tone="warning">
					{ _x( 'Active, failing', 'endpoint status', 'service-integration' ) }
				</StatusBadge>
			);
		case 'healthy':
			return (
				<StatusBadge tone="success">{ _x( 'Active', 'endpoint status', 'service-integration' ) }</StatusBadge>
			);
		default:
			return (
				<StatusBadge tone="error">{ _x( 'Disabled', 'endpoint status', 'service-integration' ) }</StatusBadge>
			);
	}
}
