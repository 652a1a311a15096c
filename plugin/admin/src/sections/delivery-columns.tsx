import { Button } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import type { Delivery } from '../api/webhooks';
import { Code, WithBreaks } from '../components/Code';
import type { Column } from '../components/DataTable';
import { eventTypeLabel } from '../components/EventTypeCheckboxes';
import { formatDateTime, NONE } from '../components/format';
import type { Action } from '../hooks/use-action';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';

/** What a delivery's row needs beyond the delivery: the endpoints' URLs and its two buttons. */
export interface DeliveryRowContext {
	endpointUrl: ( id: string ) => string;
	action: Action;
	isOpen: ( delivery: Delivery ) => boolean;
	onToggleAttempts: ( delivery: Delivery ) => void;
	onReplay: ( delivery: Delivery ) => void;
}

/** The delivery log's columns, the last one with the attempts and replay buttons. */
export function deliveryColumns( context: DeliveryRowContext ): Column< Delivery >[] {
	const { endpointUrl, action, isOpen, onToggleAttempts, onReplay } = context;
	return [
		{
			label: __( 'Created', 'service-integration' ),
			render: ( delivery ) => formatDateTime( delivery.created_at ),
		},
		{
			label: __( 'Event', 'service-integration' ),
			render: ( delivery ) => (
				<>
					{ eventTypeLabel( delivery.event_type ) }
					<br />
					<Code className="si-event-id">{ delivery.event_id }</Code>
				</>
			),
		},
		{
			label: __( 'Endpoint', 'service-integration' ),
			className: 'si-cell-url',
			render: ( delivery ) => <WithBreaks text={ endpointUrl( delivery.endpoint_id ) } />,
		},
		{
			label: __( 'Status', 'service-integration' ),
			render: ( delivery ) => <DeliveryStatusBadge status={ delivery.status } />,
		},
		{ label: __( 'Attempts', 'service-integration' ), render: ( delivery ) => delivery.attempt_count },
		{
			label: __( 'Last answer', 'service-integration' ),
			render: ( delivery ) => delivery.last_status_code ?? delivery.last_error ?? NONE,
		},
		{
			label: __( 'Next attempt', 'service-integration' ),
			render: ( delivery ) => formatDateTime( delivery.next_attempt_at ),
		},
		{
			label: __( 'Actions', 'service-integration' ),
			className: 'si-row-actions',
			render: ( delivery ) => (
				<>
					<Button
						variant="secondary"
						size="compact"
						aria-expanded={ isOpen( delivery ) }
						onClick={ () => onToggleAttempts( delivery ) }
					>
						{ isOpen( delivery )
							? __( 'Hide attempts', 'service-integration' )
							: __( 'Attempts', 'service-integration' ) }
					</Button>
					<Button
						variant="secondary"
						size="compact"
						onClick={ () => onReplay( delivery ) }
						isBusy={ action.busy === `replay-${ delivery.id }` }
						disabled={ action.busy !== null }
						aria-label={ sprintf(
							/* translators: %s: event id. */ __( 'Replay event %s', 'service-integration' ),
							delivery.event_id
						) }
					>
						{ __( 'Replay', 'service-integration' ) }
					</Button>
				</>
			),
		},
	];
}
