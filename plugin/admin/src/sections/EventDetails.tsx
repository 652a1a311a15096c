import { createInterpolateElement } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import { getEvent, type Attempt, type Endpoint } from '../api/webhooks';
import { Code, WithBreaks } from '../components/Code';
import { DataTable, type Column } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { formatDateTime, formatDurationMs, NONE } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { useResource } from '../hooks/use-resource';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';

/** One event: its deliveries and every attempt (status, duration, next try, answer excerpt). */
export function EventDetails( {
	eventId,
	endpoints,
	refreshKey,
}: {
	eventId: string;
	endpoints: Endpoint[];
	refreshKey: number;
} ) {
	const details = useResource( () => getEvent( eventId ), [ eventId, refreshKey ] );
	const endpointUrl = ( id: string ) => endpoints.find( ( endpoint ) => endpoint.id === id )?.url ?? id;

	if ( details.loading && ! details.data ) {
		return <LoadingState label={ __( 'Loading the attempts…', 'service-integration' ) } />;
	}
	if ( details.error ) {
		return (
			<ErrorNotice
				error={ details.error }
				context={ __( 'Loading the event', 'service-integration' ) }
				onRetry={ details.reload }
			/>
		);
	}
	if ( ! details.data ) {
		return null;
	}
	const { event, deliveries } = details.data;
	return (
		<div className="si-event-details">
			<dl className="si-facts">
				<dt>{ __( 'Event', 'service-integration' ) }</dt>
				<dd>
					<Code>{ event.id }</Code> ({ event.type })
				</dd>
				<dt>{ __( 'Happened', 'service-integration' ) }</dt>
				<dd>{ formatDateTime( event.timestamp ) }</dd>
				<dt>{ __( 'Received by the sidecar', 'service-integration' ) }</dt>
				<dd>{ formatDateTime( event.received_at ) }</dd>
			</dl>
			{ deliveries.map( ( delivery ) => (
				<div className="si-delivery-attempts" key={ delivery.id }>
					<h4>
						{ /* One flex item: the <wbr>s would otherwise each be one, spaced apart. */ }
						<span className="si-delivery-attempts__to">
							{ createInterpolateElement(
								sprintf(
									/* translators: %s: endpoint URL. */ __( 'To %s', 'service-integration' ),
									'<url/>'
								),
								{ url: <WithBreaks text={ endpointUrl( delivery.endpoint_id ) } /> }
							) }
						</span>{ ' ' }
						<DeliveryStatusBadge status={ delivery.status } />
					</h4>
					{ delivery.resent_on_recovery_at ? (
						<p className="si-delivery-attempts__resent">
							{ sprintf(
								/* translators: %s: date and time. */ __(
									'Sent again on %s: its retries had run out while the endpoint failed, and the endpoint succeeded again.',
									'service-integration'
								),
								formatDateTime( delivery.resent_on_recovery_at )
							) }
						</p>
					) : null }
					{ delivery.attempts.length === 0 ? (
						<p className="si-empty">
							{ delivery.next_attempt_at
								? sprintf(
										/* translators: %s: date and time. */ __(
											'Not tried yet; first attempt at %s.',
											'service-integration'
										),
										formatDateTime( delivery.next_attempt_at )
									)
								: __( 'Not tried yet.', 'service-integration' ) }
						</p>
					) : (
						<DataTable
							caption={ sprintf(
								/* translators: %s: endpoint URL. */ __(
									'Attempts to deliver to %s',
									'service-integration'
								),
								endpointUrl( delivery.endpoint_id )
							) }
							className="si-attempts"
							columns={ attemptColumns() }
							rows={ delivery.attempts }
							rowKey={ ( attempt ) => attempt.attempt_number }
						/>
					) }
				</div>
			) ) }
		</div>
	);
}

function attemptColumns(): Column< Attempt >[] {
	return [
		{ label: __( '#', 'service-integration' ), render: ( attempt ) => attempt.attempt_number },
		{ label: __( 'Started', 'service-integration' ), render: ( attempt ) => formatDateTime( attempt.started_at ) },
		{
			label: __( 'HTTP status', 'service-integration' ),
			className: 'si-attempt-status',
			render: ( attempt ) => attempt.status_code ?? attempt.error_code ?? NONE,
		},
		{
			label: __( 'Duration', 'service-integration' ),
			render: ( attempt ) => formatDurationMs( attempt.duration_ms ),
		},
		{
			label: __( 'Next attempt', 'service-integration' ),
			render: ( attempt ) => formatDateTime( attempt.next_attempt_at ),
		},
		{
			label: __( 'Trigger', 'service-integration' ),
			render: ( attempt ) =>
				attempt.trigger === 'manual'
					? __( 'replay', 'service-integration' )
					: __( 'scheduled', 'service-integration' ),
		},
		{
			label: __( 'Answer (excerpt)', 'service-integration' ),
			render: ( attempt ) =>
				attempt.response_excerpt ? <code className="si-excerpt">{ attempt.response_excerpt }</code> : NONE,
		},
	];
}
