import { __ } from '@wordpress/i18n';
import { StatusBadge, type Tone } from '../components/StatusBadge';

export function deliveryStatusLabel( status: string ): string {
	switch ( status ) {
		case 'pending':
			return __( 'Pending', 'service-integration' );
		case 'in_flight':
			return __( 'Sending', 'service-integration' );
		case 'succeeded':
			return __( 'Succeeded', 'service-integration' );
		case 'failed':
			return __( 'Failed', 'service-integration' );
		case 'cancelled':
			return __( 'Cancelled', 'service-integration' );
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
