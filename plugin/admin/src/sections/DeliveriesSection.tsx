import { useState } from '@wordpress/element';
import { __, _n, sprintf } from '@wordpress/i18n';
import {
	DELIVERY_STATUSES,
	EVENT_TYPES,
	listDeliveries,
	listEndpoints,
	replayEvent,
	type Delivery,
	type Endpoint,
} from '../api/webhooks';
import { ActionPanel } from '../components/ActionPanel';
import { DataTable } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { eventTypeLabel } from '../components/EventTypeCheckboxes';
import type { Option } from '../components/format';
import { ListScreen } from '../components/ListScreen';
import { useAction } from '../hooks/use-action';
import { useListQuery } from '../hooks/use-list-query';
import { useResource } from '../hooks/use-resource';
import { deliveryColumns } from './delivery-columns';
import { deliveryStatusLabel } from './DeliveryStatusBadge';
import { EventDetails } from './EventDetails';
import { ReplayFailedForm } from './ReplayFailedForm';

/** A delivery's row, known apart from another delivery of the same event. */
const rowKey = ( delivery: Delivery ) => `${ delivery.event_id }:${ delivery.id }`;

/** The delivery log: filters, paging, each event's attempts, replays. */
export function DeliveriesSection() {
	const query = useListQuery( { endpoint_id: '', type: '', status: '' } );
	const { filters, page, perPage } = query;
	const [ open, setOpen ] = useState< string | null >( null );
	const [ refreshKey, setRefreshKey ] = useState( 0 );
	const [ message, setMessage ] = useState< string | null >( null );
	const endpoints = useResource( listEndpoints, [] );
	const deliveries = useResource(
		() => listDeliveries( { ...filters, page, per_page: perPage } ),
		[ filters.endpoint_id, filters.type, filters.status, page, refreshKey ]
	);
	const action = useAction();
	const refresh = () => setRefreshKey( ( n ) => n + 1 );

	const replay = async ( delivery: Delivery ) => {
		const answer = await action.run( `replay-${ delivery.id }`, () =>
			replayEvent( delivery.event_id, delivery.endpoint_id )
		);
		if ( answer ) {
			setMessage(
				sprintf(
					/* translators: 1: event id, 2: number of deliveries. */ _n(
						'Event %1$s queued again (%2$d delivery).',
						'Event %1$s queued again (%2$d deliveries).',
						answer.requeued,
						'service-integration'
					),
					delivery.event_id,
					answer.requeued
				)
			);
			refresh();
		}
	};

	const endpointList: Endpoint[] = endpoints.data ?? [];
	const endpointUrl = ( id: string ) => endpointList.find( ( endpoint ) => endpoint.id === id )?.url ?? id;
	const notAvailable = deliveries.error?.code === 'rest_no_route';

	return (
		<ActionPanel
			title={ __( 'Deliveries', 'service-integration' ) }
			description={ __(
				'Every webhook the sidecar sent or will send, newest first. Open one to see each attempt; replay sends the same event again with the same webhook-id, so receivers can recognise it.',
				'service-integration'
			) }
			refresh={ notAvailable ? null : { onRefresh: refresh, busy: deliveries.loading } }
			message={ message }
			onDismissMessage={ () => setMessage( null ) }
			action={ action }
		>
			{ notAvailable && deliveries.error ? (
				<ErrorNotice error={ deliveries.error } />
			) : (
				<>
					<ListScreen
						resource={ deliveries }
						items={ ( data ) => data.deliveries }
						onRetry={ refresh }
						labels={ {
							loading: __( 'Loading the deliveries…', 'service-integration' ),
							error: __( 'Loading the deliveries', 'service-integration' ),
							empty: __( 'No delivery matches.', 'service-integration' ),
						} }
						filters={ {
							label: __( 'Filter the deliveries', 'service-integration' ),
							query,
							fields: [
								{
									key: 'endpoint_id',
									label: __( 'Endpoint', 'service-integration' ),
									allLabel: __( 'All endpoints', 'service-integration' ),
									options: endpointList.map( ( endpoint ) => ( {
										label: endpoint.url,
										value: endpoint.id,
									} ) ),
								},
								{
									key: 'type',
									label: __( 'Event type', 'service-integration' ),
									allLabel: __( 'All types', 'service-integration' ),
									options: EVENT_TYPES.map( ( type ): Option => ( {
										label: eventTypeLabel( type ),
										value: type,
									} ) ),
								},
								{
									key: 'status',
									label: __( 'Status', 'service-integration' ),
									allLabel: __( 'All statuses', 'service-integration' ),
									options: DELIVERY_STATUSES.map( ( status ): Option => ( {
										label: deliveryStatusLabel( status ),
										value: status,
									} ) ),
								},
							],
						} }
						paging={ {
							query,
							total: ( data ) => data.total,
							label: __( 'Delivery pages', 'service-integration' ),
						} }
					>
						{ ( rows ) => (
							<DataTable
								caption={ __( 'Deliveries, newest first', 'service-integration' ) }
								className="si-deliveries"
								columns={ deliveryColumns( {
									endpointUrl,
									action,
									isOpen: ( delivery ) => open === rowKey( delivery ),
									onToggleAttempts: ( delivery ) =>
										setOpen( open === rowKey( delivery ) ? null : rowKey( delivery ) ),
									onReplay: ( delivery ) => void replay( delivery ),
								} ) }
								rows={ rows }
								rowKey={ ( delivery ) => delivery.id }
								rowAttributes={ ( delivery ) => ( {
									'data-event-id': delivery.event_id,
									'data-status': delivery.status,
								} ) }
								details={ ( delivery ) =>
									open === rowKey( delivery ) ? (
										<EventDetails
											eventId={ delivery.event_id }
											endpoints={ endpointList }
											refreshKey={ refreshKey }
										/>
									) : null
								}
							/>
						) }
					</ListScreen>
					<ReplayFailedForm
						endpointId={ filters.endpoint_id }
						action={ action }
						onReplayed={ ( text ) => {
							setMessage( text );
							refresh();
						} }
					/>
				</>
			) }
		</ActionPanel>
	);
}
