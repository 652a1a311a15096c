import { Button, Notice } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, _x, sprintf } from '@wordpress/i18n';
import { INBOUND_EVENT_STATUSES, listInboundEvents, retryInboundEvent, type InboundSource } from '../api/inbound';
import { Code } from '../components/Code';
import { ErrorNotice } from '../components/ErrorNotice';
import { FilterSelect } from '../components/FilterSelect';
import { formatDateTime, NONE, type Option } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { Pager } from '../components/Pager';
import { ResponsiveTable } from '../components/ResponsiveTable';
import { StatusBadge, type Tone } from '../components/StatusBadge';
import { useAction } from '../hooks/use-action';
import { useResource } from '../hooks/use-resource';
import { InboundDuplicates } from './InboundDuplicates';

const PER_PAGE = 20;

export function inboundStatusLabel( status: string ): string {
	switch ( status ) {
		case 'received':
			return _x( 'Received', 'inbound event status', 'service-integration' );
		case 'processed':
			return _x( 'Processed', 'inbound event status', 'service-integration' );
		case 'failed':
			return _x( 'Failed', 'inbound event status', 'service-integration' );
		default:
			return status;
	}
}

const TONES: Record< string, Tone > = { received: 'info', processed: 'success', failed: 'error' };

/** Events received from the remote services (stored once each) and their processing state. */
export function InboundEvents( { sources, refreshKey }: { sources: InboundSource[]; refreshKey: number } ) {
	const [ source, setSource ] = useState( '' );
	const [ status, setStatus ] = useState( '' );
	const [ duplicates, setDuplicates ] = useState( '' );
	const [ page, setPage ] = useState( 1 );
	const [ retried, setRetried ] = useState( 0 );
	const [ message, setMessage ] = useState< string | null >( null );
	const events = useResource(
		() => listInboundEvents( { source, status, duplicate: duplicates === 'only', page, per_page: PER_PAGE } ),
		[ source, status, duplicates, page, refreshKey, retried ]
	);
	const action = useAction();
	const data = events.data;

	const retry = async ( id: number, eventId: string ) => {
		if ( await action.run( `retry-${ id }`, () => retryInboundEvent( id ) ) ) {
			setMessage(
				sprintf(
					/* translators: %s: event id. */ __( 'Event %s will be processed again.', 'service-integration' ),
					eventId
				)
			);
			setRetried( ( n ) => n + 1 );
		}
	};

	return (
		<div className="si-subsection">
			<h3>{ __( 'Received events', 'service-integration' ) }</h3>
			<p className="si-help">
				{ __(
					'Each event is stored once, then handed to site code through a WordPress action. A duplicate delivery (the same event sent again) is acknowledged to the sender and counted on the event, but never processed again.',
					'service-integration'
				) }
			</p>
			{ data ? (
				<p className="si-counts">
					{ INBOUND_EVENT_STATUSES.map( ( value ) => (
						<StatusBadge key={ value } tone={ TONES[ value ] ?? 'neutral' }>
							{ sprintf(
								/* translators: 1: a status, e.g. Received, 2: number of events. */ __(
									'%1$s: %2$d',
									'service-integration'
								),
								inboundStatusLabel( value ),
								data.counts[ value ] ?? 0
							) }
						</StatusBadge>
					) ) }
					<StatusBadge tone="neutral">
						{ sprintf(
							/* translators: %d: number of deliveries acknowledged as duplicates. */ __(
								'Duplicate deliveries: %d',
								'service-integration'
							),
							data.duplicates.deliveries
						) }
					</StatusBadge>
				</p>
			) : null }
			<div
				className="si-filters"
				role="search"
				aria-label={ __( 'Filter the received events', 'service-integration' ) }
			>
				<FilterSelect
					label={ __( 'Source', 'service-integration' ) }
					allLabel={ __( 'All sources', 'service-integration' ) }
					value={ source }
					options={ sources.map( ( s ): Option => ( { label: s.id, value: s.id } ) ) }
					onChange={ ( value: string ) => {
						setSource( value );
						setPage( 1 );
					} }
				/>
				<FilterSelect
					label={ __( 'Status', 'service-integration' ) }
					allLabel={ __( 'All statuses', 'service-integration' ) }
					value={ status }
					options={ INBOUND_EVENT_STATUSES.map( ( value ): Option => ( {
						label: inboundStatusLabel( value ),
						value,
					} ) ) }
					onChange={ ( value: string ) => {
						setStatus( value );
						setPage( 1 );
					} }
				/>
				<FilterSelect
					label={ __( 'Duplicates', 'service-integration' ) }
					allLabel={ __( 'All events', 'service-integration' ) }
					value={ duplicates }
					options={ [ { label: __( 'Delivered more than once', 'service-integration' ), value: 'only' } ] }
					onChange={ ( value: string ) => {
						setDuplicates( value );
						setPage( 1 );
					} }
				/>
			</div>
			{ message ? (
				<Notice status="success" onRemove={ () => setMessage( null ) } className="si-notice">
					{ message }
				</Notice>
			) : null }
			{ action.error ? <ErrorNotice error={ action.error } onDismiss={ action.clearError } /> : null }
			{ events.loading && ! data ? (
				<LoadingState label={ __( 'Loading the received events…', 'service-integration' ) } />
			) : null }
			{ events.error ? (
				<ErrorNotice
					error={ events.error }
					context={ __( 'Loading the received events', 'service-integration' ) }
					onRetry={ events.reload }
				/>
			) : null }
			{ data && ! events.error ? (
				data.events.length === 0 ? (
					<p className="si-empty">{ __( 'No received event matches.', 'service-integration' ) }</p>
				) : (
					<ResponsiveTable
						caption={ __( 'Received events, newest first', 'service-integration' ) }
						className="si-inbound-events"
					>
						<thead>
							<tr>
								<th scope="col">{ __( 'Received', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Source', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Event', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Status', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Attempts', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Duplicates', 'service-integration' ) }</th>
								<th scope="col">{ __( 'Details', 'service-integration' ) }</th>
							</tr>
						</thead>
						<tbody>
							{ data.events.map( ( event ) => (
								<tr
									key={ event.id }
									data-event-id={ event.event_id }
									data-status={ event.status }
									data-duplicates={ event.duplicate_count ?? 0 }
								>
									<td>{ formatDateTime( event.received_at ) }</td>
									<td>{ event.source }</td>
									<td>
										{ event.type ?? NONE }
										<br />
										<Code className="si-event-id">{ event.event_id }</Code>
										{ event.delivery_id ? (
											<>
												<br />
												{ __( 'Delivery:', 'service-integration' ) }{ ' ' }
												<Code className="si-event-id si-delivery-id">
													{ event.delivery_id }
												</Code>
											</>
										) : null }
									</td>
									<td>
										<StatusBadge tone={ TONES[ event.status ] ?? 'neutral' }>
											{ inboundStatusLabel( event.status ) }
										</StatusBadge>
									</td>
									<td>{ event.attempts }</td>
									<td>
										<InboundDuplicates
											count={ event.duplicate_count ?? 0 }
											lastAt={ event.last_duplicate_at ?? null }
										/>
									</td>
									<td>
										{ event.status === 'processed'
											? sprintf(
													/* translators: %s: date and time. */ __(
														'Processed %s',
														'service-integration'
													),
													formatDateTime( event.processed_at )
												)
											: null }
										{ event.status !== 'processed' && event.last_error ? (
											<code className="si-excerpt">{ event.last_error }</code>
										) : null }
										{ event.status !== 'processed' && event.next_attempt_at
											? sprintf(
													/* translators: %s: date and time. */ __(
														'Next attempt %s',
														'service-integration'
													),
													formatDateTime( event.next_attempt_at )
												)
											: null }
										{ event.status === 'failed' ? (
											<Button
												variant="secondary"
												size="compact"
												onClick={ () => void retry( event.id, event.event_id ) }
												isBusy={ action.busy === `retry-${ event.id }` }
												disabled={ action.busy !== null }
												aria-label={ sprintf(
													/* translators: %s: event id. */ __(
														'Process event %s again',
														'service-integration'
													),
													event.event_id
												) }
											>
												{ __( 'Process again', 'service-integration' ) }
											</Button>
										) : null }
									</td>
								</tr>
							) ) }
						</tbody>
					</ResponsiveTable>
				)
			) : null }
			{ data && ! events.error ? (
				<Pager
					page={ page }
					perPage={ PER_PAGE }
					total={ data.total }
					busy={ events.loading }
					onPage={ setPage }
					label={ __( 'Received event pages', 'service-integration' ) }
				/>
			) : null }
		</div>
	);
}
