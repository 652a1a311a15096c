import { Button, Notice, TextControl } from '@wordpress/components';
import { Fragment, useState } from '@wordpress/element';
import { __, _n, sprintf } from '@wordpress/i18n';
import {
	DELIVERY_STATUSES,
	EVENT_TYPES,
	listDeliveries,
	listEndpoints,
	replayEvent,
	replayFailedSince,
	type Delivery,
	type Endpoint,
} from '../api/webhooks';
import { Code, WithBreaks } from '../components/Code';
import { ErrorNotice } from '../components/ErrorNotice';
import { FilterSelect } from '../components/FilterSelect';
import { formatDateTime, isoToLocalInput, localInputToIso, NONE } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { Pager } from '../components/Pager';
import { ResponsiveTable } from '../components/ResponsiveTable';
import { Section } from '../components/Section';
import { useAction } from '../hooks/use-action';
import { useResource } from '../hooks/use-resource';
import { DeliveryStatusBadge, deliveryStatusLabel } from './DeliveryStatusBadge';
import { eventTypeLabel } from '../components/EventTypeCheckboxes';
import { EventDetails } from './EventDetails';
import type { Option } from '../components/format';

const PER_PAGE = 20;

interface Filters {
	endpoint_id: string;
	type: string;
	status: string;
}

/** The delivery log: filters, paging, each event's attempts, replays. */
export function DeliveriesSection() {
	const [ filters, setFilters ] = useState< Filters >( { endpoint_id: '', type: '', status: '' } );
	const [ page, setPage ] = useState( 1 );
	const [ open, setOpen ] = useState< string | null >( null );
	const [ refreshKey, setRefreshKey ] = useState( 0 );
	const [ message, setMessage ] = useState< string | null >( null );
	const [ since, setSince ] = useState( () => isoToLocalInput( new Date( Date.now() - 24 * 3600 * 1000 ) ) );
	const endpoints = useResource( listEndpoints, [] );
	const deliveries = useResource(
		() => listDeliveries( { ...filters, page, per_page: PER_PAGE } ),
		[ filters.endpoint_id, filters.type, filters.status, page, refreshKey ]
	);
	const action = useAction();

	const setFilter = ( key: keyof Filters, value: string ) => {
		setFilters( ( current ) => ( { ...current, [ key ]: value } ) );
		setPage( 1 );
	};
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
	const replaySince = async () => {
		const iso = localInputToIso( since );
		if ( ! iso ) {
			action.invalid(
				__( 'Enter the date and time from which to replay the failed deliveries.', 'service-integration' ),
				'since'
			);
			return;
		}
		const answer = await action.run( 'replay-since', () =>
			replayFailedSince( iso, filters.endpoint_id || undefined )
		);
		if ( answer ) {
			setMessage(
				sprintf(
					/* translators: %d: number of deliveries. */ _n(
						'%d failed delivery queued again.',
						'%d failed deliveries queued again.',
						answer.requeued,
						'service-integration'
					),
					answer.requeued
				)
			);
			refresh();
		}
	};

	const endpointList: Endpoint[] = endpoints.data ?? [];
	const endpointUrl = ( id: string ) => endpointList.find( ( endpoint ) => endpoint.id === id )?.url ?? id;
	const total = deliveries.data?.total ?? 0;
	const notAvailable = deliveries.error?.code === 'rest_no_route';

	return (
		<Section
			title={ __( 'Deliveries', 'service-integration' ) }
			description={ __(
				'Every webhook the sidecar sent or will send, newest first. Open one to see each attempt; replay sends the same event again with the same webhook-id, so receivers can recognise it.',
				'service-integration'
			) }
			actions={
				! notAvailable ? (
					<Button
						variant="secondary"
						size="compact"
						onClick={ refresh }
						isBusy={ deliveries.loading }
						disabled={ deliveries.loading }
					>
						{ __( 'Refresh', 'service-integration' ) }
					</Button>
				) : null
			}
		>
			{ notAvailable ? (
				<ErrorNotice error={ deliveries.error! } />
			) : (
				<>
					{ message ? (
						<Notice status="success" onRemove={ () => setMessage( null ) } className="si-notice">
							{ message }
						</Notice>
					) : null }
					{ action.error ? <ErrorNotice error={ action.error } onDismiss={ action.clearError } /> : null }
					<div
						className="si-filters"
						role="search"
						aria-label={ __( 'Filter the deliveries', 'service-integration' ) }
					>
						<FilterSelect
							label={ __( 'Endpoint', 'service-integration' ) }
							allLabel={ __( 'All endpoints', 'service-integration' ) }
							value={ filters.endpoint_id }
							options={ endpointList.map( ( endpoint ) => ( {
								label: endpoint.url,
								value: endpoint.id,
							} ) ) }
							onChange={ ( value: string ) => setFilter( 'endpoint_id', value ) }
						/>
						<FilterSelect
							label={ __( 'Event type', 'service-integration' ) }
							allLabel={ __( 'All types', 'service-integration' ) }
							value={ filters.type }
							options={ EVENT_TYPES.map( ( type ): Option => ( {
								label: eventTypeLabel( type ),
								value: type,
							} ) ) }
							onChange={ ( value: string ) => setFilter( 'type', value ) }
						/>
						<FilterSelect
							label={ __( 'Status', 'service-integration' ) }
							allLabel={ __( 'All statuses', 'service-integration' ) }
							value={ filters.status }
							options={ DELIVERY_STATUSES.map( ( status ): Option => ( {
								label: deliveryStatusLabel( status ),
								value: status,
							} ) ) }
							onChange={ ( value: string ) => setFilter( 'status', value ) }
						/>
					</div>
					{ deliveries.loading && ! deliveries.data ? (
						<LoadingState label={ __( 'Loading the deliveries…', 'service-integration' ) } />
					) : null }
					{ deliveries.error ? (
						<ErrorNotice
							error={ deliveries.error }
							context={ __( 'Loading the deliveries', 'service-integration' ) }
							onRetry={ refresh }
						/>
					) : null }
					{ deliveries.data && ! deliveries.error ? (
						deliveries.data.deliveries.length === 0 ? (
							<p className="si-empty">{ __( 'No delivery matches.', 'service-integration' ) }</p>
						) : (
							<ResponsiveTable
								caption={ __( 'Deliveries, newest first', 'service-integration' ) }
								className="si-deliveries"
							>
								<thead>
									<tr>
										<th scope="col">{ __( 'Created', 'service-integration' ) }</th>
										<th scope="col">{ __( 'Event', 'service-integration' ) }</th>
										<th scope="col">{ __( 'Endpoint', 'service-integration' ) }</th>
										<th scope="col">{ __( 'Status', 'service-integration' ) }</th>
										<th scope="col">{ __( 'Attempts', 'service-integration' ) }</th>
										<th scope="col">{ __( 'Last answer', 'service-integration' ) }</th>
										<th scope="col">{ __( 'Next attempt', 'service-integration' ) }</th>
										<th scope="col">{ __( 'Actions', 'service-integration' ) }</th>
									</tr>
								</thead>
								<tbody>
									{ deliveries.data.deliveries.map( ( delivery ) => {
										const key = `${ delivery.event_id }:${ delivery.id }`;
										const isOpen = open === key;
										return (
											<Fragment key={ delivery.id }>
												<tr data-event-id={ delivery.event_id } data-status={ delivery.status }>
													<td>{ formatDateTime( delivery.created_at ) }</td>
													<td>
														{ eventTypeLabel( delivery.event_type ) }
														<br />
														<Code className="si-event-id">{ delivery.event_id }</Code>
													</td>
													<td className="si-cell-url">
														<WithBreaks text={ endpointUrl( delivery.endpoint_id ) } />
													</td>
													<td>
														<DeliveryStatusBadge status={ delivery.status } />
													</td>
													<td>{ delivery.attempt_count }</td>
													<td>
														{ delivery.last_status_code ?? delivery.last_error ?? NONE }
													</td>
													<td>{ formatDateTime( delivery.next_attempt_at ) }</td>
													<td className="si-row-actions">
														<Button
															variant="secondary"
															size="compact"
															aria-expanded={ isOpen }
															onClick={ () => setOpen( isOpen ? null : key ) }
														>
															{ isOpen
																? __( 'Hide attempts', 'service-integration' )
																: __( 'Attempts', 'service-integration' ) }
														</Button>
														<Button
															variant="secondary"
															size="compact"
															onClick={ () => void replay( delivery ) }
															isBusy={ action.busy === `replay-${ delivery.id }` }
															disabled={ action.busy !== null }
															aria-label={ sprintf(
																/* translators: %s: event id. */ __(
																	'Replay event %s',
																	'service-integration'
																),
																delivery.event_id
															) }
														>
															{ __( 'Replay', 'service-integration' ) }
														</Button>
													</td>
												</tr>
												{ isOpen ? (
													<tr className="si-details-row">
														<td colSpan={ 8 }>
															<EventDetails
																eventId={ delivery.event_id }
																endpoints={ endpointList }
																refreshKey={ refreshKey }
															/>
														</td>
													</tr>
												) : null }
											</Fragment>
										);
									} ) }
								</tbody>
							</ResponsiveTable>
						)
					) : null }
					{ deliveries.data && ! deliveries.error ? (
						<Pager
							page={ page }
							perPage={ PER_PAGE }
							total={ total }
							busy={ deliveries.loading }
							onPage={ setPage }
							label={ __( 'Delivery pages', 'service-integration' ) }
						/>
					) : null }
					<form
						className="si-subsection si-inline-form si-replay-since"
						noValidate
						aria-label={ __( 'Replay failed deliveries', 'service-integration' ) }
						onSubmit={ ( event ) => {
							event.preventDefault();
							void replaySince();
						} }
					>
						<h3>{ __( 'Replay failed deliveries', 'service-integration' ) }</h3>
						<p className="si-help">
							{ filters.endpoint_id
								? __(
										'Sends again every delivery to the endpoint selected above that failed or was cancelled since this time (e.g. after the receiver was down).',
										'service-integration'
									)
								: __(
										'Sends again every delivery that failed or was cancelled since this time (e.g. after a receiver was down).',
										'service-integration'
									) }
						</p>
						<TextControl
							__nextHasNoMarginBottom
							__next40pxDefaultSize
							label={ __( 'Since (your local time)', 'service-integration' ) }
							type="datetime-local"
							value={ since }
							onChange={ ( value: string ) => setSince( value ) }
						/>
						<Button
							variant="secondary"
							type="submit"
							isBusy={ action.busy === 'replay-since' }
							disabled={ action.busy !== null }
						>
							{ __( 'Replay failed deliveries', 'service-integration' ) }
						</Button>
					</form>
				</>
			) }
		</Section>
	);
}
