import { CheckboxControl } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import { EVENT_TYPES, type EventType } from '../api/webhooks';

export function eventTypeLabel( type: string ): string {
	switch ( type ) {
		case 'order.created':
			return __( 'Order created', 'service-integration' );
		case 'order.paid':
			return __( 'Order paid', 'service-integration' );
		case 'order.refunded':
			return __( 'Order refunded', 'service-integration' );
		case 'service_integration.test':
			return __( 'Test event', 'service-integration' );
		default:
			return type;
	}
}

/** One checkbox per event type, labelled "Order paid (order.paid)"; the choice comes back in EVENT_TYPES order. */
export function EventTypeCheckboxes( {
	selected,
	onChange,
}: {
	selected: readonly string[];
	onChange: ( next: EventType[] ) => void;
} ) {
	return (
		<>
			{ EVENT_TYPES.map( ( type ) => (
				<CheckboxControl
					__nextHasNoMarginBottom
					key={ type }
					label={ `${ eventTypeLabel( type ) } (${ type })` }
					checked={ selected.includes( type ) }
					onChange={ ( checked: boolean ) =>
						onChange( EVENT_TYPES.filter( ( t ) => ( t === type ? checked : selected.includes( t ) ) ) )
					}
				/>
			) ) }
		</>
	);
}
