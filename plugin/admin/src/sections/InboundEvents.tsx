import { Button, Notice } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import {
	INBOUND_EVENT_STATUSES,
	listInboundEvents,
	retryInboundEvent,
	type InboundEvent,
	type InboundSource,
} from '../api/inbound';
import { Code } from '../components/Code';
import { DataTable, type Column } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { formatDateTime, NONE, type Option } from '../components/format';
import { ListScreen } from '../components/ListScreen';
import { StatusBadge } from '../components/StatusBadge';
import { useAction, type Action } from '../hooks/use-action';
import { useListQuery } from '../hooks/use-list-query';
import { useResource } from '../hooks/use-resource';
import { inboundStatusLabel, inboundStatusTone, sourceFilter } from './inbound-labels';
import { InboundDuplicates } from './InboundDuplicates';

/** Events received from the remote services (stored once each) and their processing state. */
export function InboundEvents( { sources, refreshKey }: { sources: InboundSource[]; refreshKey: number } ) {
	const query = useListQuery( { source: '', status: '', duplicates: '' } );
	const { filters, page, perPage } = query;
	const [ retried, setRetried ] = useState( 0 );
	const [ message, setMessage ] = useState< string | null >( null );
	const events = useResource(
		() =>
			listInboundEvents( {
				source: filters.source,
				status: filters.status,
				duplicate: filters.duplicates === 'only',
				page,
				per_page: perPage,
			} ),
		[ filters.source, filters.status, filters.duplicates, page, refreshKey, retried ]
	);
	const action = useAction();
	const data = events.data;

	const retry = async ( event: InboundEvent ) => {
		if ( await action.run( `retry-${ event.id }`, () => retryInboundEvent( event.id ) ) ) {
			setMessage(
				sprintf(
					/* translators: %s: event id. */ __( 'Event %s will be processed again.', 'service-integration' ),
					event.event_id
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
						<StatusBadge key={ value } tone={ inboundStatusTone( value ) }>
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
			<ListScreen
				resource={ events }
				items={ ( answer ) => answer.events }
				labels={ {
					loading: __( 'Loading the received events…', 'service-integration' ),
					error: __( 'Loading the received events', 'service-integration' ),
					empty: __( 'No received event matches.', 'service-integration' ),
				} }
				filters={ {
					label: __( 'Filter the received events', 'service-integration' ),
					query,
					fields: [
						sourceFilter( sources ),
						{
							key: 'status',
							label: __( 'Status', 'service-integration' ),
							allLabel: __( 'All statuses', 'service-integration' ),
							options: INBOUND_EVENT_STATUSES.map( ( value ): Option => ( {
								label: inboundStatusLabel( value ),
								value,
							} ) ),
						},
						{
							key: 'duplicates',
							label: __( 'Duplicates', 'service-integration' ),
							allLabel: __( 'All events', 'service-integration' ),
							options: [
								{ label: __( 'Delivered more than once', 'service-integration' ), value: 'only' },
							],
						},
					],
				} }
				notices={
					<>
						{ message ? (
							<Notice status="success" onRemove={ () => setMessage( null ) } className="si-notice">
								{ message }
							</Notice>
						) : null }
						{ action.error ? <ErrorNotice error={ action.error } onDismiss={ action.clearError } /> : null }
					</>
				}
				paging={ {
					query,
					total: ( answer ) => answer.total,
					label: __( 'Received event pages', 'service-integration' ),
				} }
			>
				{ ( rows ) => (
					<DataTable
						caption={ __( 'Received events, newest first', 'service-integration' ) }
						className="si-inbound-events"
						columns={ eventColumns( action, ( event ) => void retry( event ) ) }
						rows={ rows }
						rowKey={ ( event ) => event.id }
						rowAttributes={ ( event ) => ( {
							'data-event-id': event.event_id,
							'data-status': event.status,
							'data-duplicates': event.duplicate_count ?? 0,
						} ) }
					/>
				) }
			</ListScreen>
		</div>
	);
}

function eventColumns( action: Action, onRetry: ( event: InboundEvent ) => void ): Column< InboundEvent >[] {
	return [
		{ label: __( 'Received', 'service-integration' ), render: ( event ) => formatDateTime( event.received_at ) },
		{ label: __( 'Source', 'service-integration' ), render: ( event ) => event.source },
		{
			label: __( 'Event', 'service-integration' ),
			render: ( event ) => (
				<>
					{ event.type ?? NONE }
					<br />
					<Code className="si-event-id">{ event.event_id }</Code>
					{ event.delivery_id ? (
						<>
							<br />
							{ __( 'Delivery:', 'service-integration' ) }{ ' ' }
							<Code className="si-event-id si-delivery-id">{ event.delivery_id }</Code>
						</>
					) : null }
				</>
			),
		},
		{
			label: __( 'Status', 'service-integration' ),
			render: ( event ) => (
				<StatusBadge tone={ inboundStatusTone( event.status ) }>
					{ inboundStatusLabel( event.status ) }
				</StatusBadge>
			),
		},
		{ label: __( 'Attempts', 'service-integration' ), render: ( event ) => event.attempts },
		{
			label: __( 'Duplicates', 'service-integration' ),
			render: ( event ) => (
				<InboundDuplicates count={ event.duplicate_count ?? 0 } lastAt={ event.last_duplicate_at ?? null } />
			),
		},
		{
			label: __( 'Details', 'service-integration' ),
			render: ( event ) => (
				<>
					{ event.status === 'processed'
						? sprintf(
								/* translators: %s: date and time. */ __( 'Processed %s', 'service-integration' ),
								formatDateTime( event.processed_at )
							)
						: null }
					{ event.status !== 'processed' && event.last_error ? (
						<code className="si-excerpt">{ event.last_error }</code>
					) : null }
					{ event.status !== 'processed' && event.next_attempt_at
						? sprintf(
								/* translators: %s: date and time. */ __( 'Next attempt %s', 'service-integration' ),
								formatDateTime( event.next_attempt_at )
							)
						: null }
					{ event.status === 'failed' ? (
						<Button
							variant="secondary"
							size="compact"
							onClick={ () => onRetry( event ) }
							isBusy={ action.busy === `retry-${ event.id }` }
							disabled={ action.busy !== null }
							aria-label={ sprintf(
								/* translators: %s: event id. */ __( 'Process event %s again', 'service-integration' ),
								event.event_id
							) }
						>
							{ __( 'Process again', 'service-integration' ) }
						</Button>
					) : null }
				</>
			),
		},
	];
}
