import { Button } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, _n, sprintf } from '@wordpress/i18n';
import { getOutbox, handOverNow, mysqlUtcToIso } from '../api/outbox';
import { ActionPanel } from '../components/ActionPanel';
import { formatDateTime, NONE } from '../components/format';
import { ResourceState } from '../components/ResourceState';
import { StatusBadge } from '../components/StatusBadge';
import { useAction } from '../hooks/use-action';
import { useResource } from '../hooks/use-resource';

/**
 * What WordPress holds for the sidecar: order events waiting in the outbox, the oldest one,
 * the last failure, and a button that hands them over now rather than at the next minute's job.
 */
export function OutboxSection() {
	const outbox = useResource( getOutbox, [] );
	const action = useAction();
	const [ message, setMessage ] = useState< string | null >( null );

	const handOver = async () => {
		const after = await action.run( 'hand-over', handOverNow );
		if ( after ) {
			setMessage(
				after.pending === 0
					? __( 'Every waiting event was handed over to the sidecar.', 'service-integration' )
					: sprintf(
							/* translators: %d: events still waiting. */ _n(
								'Hand-over done; %d event is still waiting.',
								'Hand-over done; %d events are still waiting.',
								after.pending,
								'service-integration'
							),
							after.pending
						)
			);
		}
		outbox.reload();
	};

	const data = outbox.data;
	return (
		<ActionPanel
			title={ __( 'Outbox', 'service-integration' ) }
			description={ __(
				'Order events WordPress keeps until the sidecar acknowledges them. They are handed over at the end of each request and every minute; while the sidecar does not answer they wait here, in order, and nothing is lost.',
				'service-integration'
			) }
			refresh={ { onRefresh: outbox.reload, busy: outbox.loading } }
			actions={
				<Button
					variant="primary"
					size="compact"
					className="si-hand-over"
					onClick={ () => void handOver() }
					isBusy={ action.busy === 'hand-over' }
					disabled={ action.busy !== null || ! data || data.pending === 0 }
				>
					{ __( 'Hand over now', 'service-integration' ) }
				</Button>
			}
			message={ message }
			onDismissMessage={ () => setMessage( null ) }
			action={ action }
			actionErrorContext={ __( 'Handing the events over', 'service-integration' ) }
		>
			<ResourceState
				resource={ outbox }
				loadingLabel={ __( 'Reading the outbox…', 'service-integration' ) }
				errorContext={ __( 'Reading the outbox', 'service-integration' ) }
			/>
			{ data ? (
				<dl className="si-facts si-outbox">
					<dt>{ __( 'Events waiting', 'service-integration' ) }</dt>
					<dd className="si-outbox-pending">
						{ data.pending > 0 ? <StatusBadge tone="warning">{ data.pending }</StatusBadge> : 0 }
					</dd>
					<dt>{ __( 'Oldest waiting since', 'service-integration' ) }</dt>
					<dd>{ data.oldest_pending ? formatDateTime( mysqlUtcToIso( data.oldest_pending ) ) : NONE }</dd>
					<dt>{ __( 'Last hand-over error', 'service-integration' ) }</dt>
					<dd className="si-outbox-last-error">{ data.last_error ?? NONE }</dd>
					<dt>{ __( 'Handed over (last 30 days)', 'service-integration' ) }</dt>
					<dd>{ data.handed_over }</dd>
					<dt>{ __( 'Refused by the sidecar', 'service-integration' ) }</dt>
					<dd>{ data.rejected > 0 ? <StatusBadge tone="error">{ data.rejected }</StatusBadge> : 0 }</dd>
				</dl>
			) : null }
		</ActionPanel>
	);
}
