import { Notice } from '@wordpress/components';
import { createInterpolateElement } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import { getSidecarStatus, type SidecarStatus } from '../api/sidecar';
import { Code, WithBreaks } from '../components/Code';
import { ErrorNotice } from '../components/ErrorNotice';
import { formatUptime } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { RefreshButton } from '../components/RefreshButton';
import { Section } from '../components/Section';
import { StatusBadge } from '../components/StatusBadge';
import { useResource } from '../hooks/use-resource';

/** The sidecar as WordPress reaches it over the signed channel. */
export function SidecarStatusSection() {
	const status = useResource( getSidecarStatus, [] );
	const unreachable = status.error?.code === 'sidecar_unreachable';
	const sidecarUrl = typeof status.error?.data.sidecar_url === 'string' ? status.error.data.sidecar_url : null;

	return (
		<Section
			title={ __( 'Sidecar status', 'service-integration' ) }
			description={ __(
				'The Node service that stores and delivers webhooks. WordPress asks it for its status over the signed channel.',
				'service-integration'
			) }
			actions={ <RefreshButton onRefresh={ status.reload } busy={ status.loading } /> }
		>
			{ status.loading && ! status.data && ! status.error ? (
				<LoadingState label={ __( 'Asking the sidecar…', 'service-integration' ) } />
			) : null }
			{ unreachable ? (
				<Notice status="error" isDismissible={ false } className="si-notice si-sidecar-unreachable">
					<p>
						<strong>{ __( 'The sidecar is not reachable.', 'service-integration' ) }</strong>{ ' ' }
						{ sidecarUrl ? (
							<>
								{ createInterpolateElement(
									sprintf(
										/* translators: %s: the sidecar's URL. */ __(
											'WordPress tried %s.',
											'service-integration'
										),
										'<url/>'
									),
									{ url: <WithBreaks text={ sidecarUrl } /> }
								) }{ ' ' }
							</>
						) : null }
						{ status.error?.message }
					</p>
					<p>{ __( 'What to do:', 'service-integration' ) }</p>
					<ul className="si-list">
						{ /* How to start it where this site runs, from WordPress (Sidecar_Messages::unreachable_hint()). */ }
						{ typeof status.error?.data.hint === 'string' ? <li>{ status.error.data.hint }</li> : null }
						<li>
							{ __(
								'Order events are kept in the outbox meanwhile and handed over when it is back: nothing is lost.',
								'service-integration'
							) }
						</li>
						<li>
							{ __(
								'Inbound webhooks cannot be verified meanwhile: their senders get 503 with Retry-After and send them again later, and nothing unverified is stored.',
								'service-integration'
							) }
						</li>
					</ul>
				</Notice>
			) : null }
			{ status.error && ! unreachable ? (
				<ErrorNotice
					error={ status.error }
					context={ __( 'Asking the sidecar for its status', 'service-integration' ) }
					onRetry={ status.reload }
				/>
			) : null }
			{ status.data && ! status.error ? <StatusView status={ status.data } /> : null }
		</Section>
	);
}

function StatusView( { status }: { status: SidecarStatus } ) {
	const { queue, endpoints } = status;
	return (
		<div className="si-status-grid">
			<dl className="si-facts">
				<dt>{ __( 'Reachable', 'service-integration' ) }</dt>
				<dd>
					{ status.reachable ? (
						<StatusBadge tone="success">{ __( 'Yes', 'service-integration' ) }</StatusBadge>
					) : (
						<StatusBadge tone="error">{ __( 'No', 'service-integration' ) }</StatusBadge>
					) }
				</dd>
				<dt>{ __( 'Address', 'service-integration' ) }</dt>
				<dd>
					<Code>{ status.url }</Code>
				</dd>
				<dt>{ __( 'Version', 'service-integration' ) }</dt>
				<dd className="si-sidecar-version">{ status.version }</dd>
				<dt>{ __( 'Up for', 'service-integration' ) }</dt>
				<dd>{ formatUptime( status.uptime_s ) }</dd>
			</dl>
			<dl className="si-facts si-queue">
				<dt>{ __( 'Deliveries waiting', 'service-integration' ) }</dt>
				<dd className="si-queue-pending">{ queue.pending }</dd>
				<dt>{ __( 'Being delivered', 'service-integration' ) }</dt>
				<dd>{ queue.in_flight }</dd>
				<dt>{ __( 'Failed for good', 'service-integration' ) }</dt>
				<dd>{ queue.failed > 0 ? <StatusBadge tone="error">{ queue.failed }</StatusBadge> : queue.failed }</dd>
				<dt>{ __( 'Cancelled', 'service-integration' ) }</dt>
				<dd>{ queue.cancelled }</dd>
			</dl>
			<dl className="si-facts si-endpoint-counts">
				<dt>{ __( 'Active endpoints', 'service-integration' ) }</dt>
				<dd>{ endpoints.active }</dd>
				<dt>{ __( 'Disabled endpoints', 'service-integration' ) }</dt>
				<dd>
					{ endpoints.disabled > 0 ? (
						<StatusBadge tone="warning">{ endpoints.disabled }</StatusBadge>
					) : (
						endpoints.disabled
					) }
				</dd>
			</dl>
		</div>
	);
}
