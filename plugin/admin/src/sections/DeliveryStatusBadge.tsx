import { _x } from '@wordpress/i18n';
import { StatusBadge, type Tone } from '../components/StatusBadge';

export function deliveryStatusLabel( status: string ): string {
	switch ( status ) {
		case 'pending':
			return _x( 'Pending', 'delivery status', 'service-integration' );
		case 'in_flight':
			return _x( 'Sending', 'delivery status', 'service-integration' );
		case 'succeeded':
			return _x( 'Succeeded', 'delivery status', 'service-integration' );
		case 'failed':
			return _x( 'Failed', 'delivery status', 'service-integration' );
		case 'cancelled':
			return _x( 'Cancelled', 'delivery status', 'service-integration' );
		default:
			return status;
	}
}

const TONES: Record< string, Tone > = {
	pending: 'info',
	in_flight: 'info',
	succeeded: 'success',
	failed: 'error',
	cancelled: 'neutral',
};

export function DeliveryStatusBadge( { status }: { status: string } ) {
	return <StatusBadge tone={ TONES[ status ] ?? 'neutral' }>{ deliveryStatusLabel( status ) }</StatusBadge>;
}
