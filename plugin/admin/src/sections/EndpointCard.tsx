import { Button } from '@wordpress/components';
import { __, _n, _x, sprintf } from '@wordpress/i18n';
import type { Endpoint } from '../api/webhooks';
import { Code, SecretMask } from '../components/Code';
import { ConfirmButton } from '../components/ConfirmButton';
import { DeleteButton } from '../components/DeleteButton';
import { EnableToggle } from '../components/EnableToggle';
import { eventTypeLabel } from '../components/EventTypeCheckboxes';
import { formatDateTime, formatPercent, NONE } from '../components/format';
import { StatusBadge } from '../components/StatusBadge';

/** The card's health, which its edge shows in the colour of its status badge. */
function healthOf( endpoint: Endpoint ): 'healthy' | 'failing' | 'disabled' {
	if ( endpoint.status !== 'active' ) {
		return 'disabled';
	}
	return endpoint.failing_since ? 'failing' : 'healthy';
}

interface CardProps {
	endpoint: Endpoint;
	busy: string | null;
	onEdit: () => void;
	onRotate: () => void;
	onToggle: () => void;
	/** Enable and send again what the endpoint missed (offered after the owner's own disable). */
	onResend: () => void;
	/** Send a signed test event to this endpoint. */
	onTest: () => void;
	onDelete: () => void;
	/** Whether the "Replay events" form is open. */
	replaying: boolean;
	onReplay: () => void;
}

export function EndpointCard( {
	endpoint,
	busy,
	onEdit,
	onRotate,
	onToggle,
	onResend,
	onTest,
	onDelete,
	replaying,
	onReplay,
}: CardProps ) {
	const active = endpoint.status === 'active';
	const health = endpoint.health;
	const rate = typeof health?.recent_success_rate === 'number' ? health.recent_success_rate : null;
	const lastError = health?.last_error ?? null;
	const [ current, ...previous ] = endpoint.secrets;
	return (
		<article
			className={ `si-endpoint si-endpoint--${ healthOf( endpoint ) }` }
			aria-label={ endpoint.url }
			data-endpoint-id={ endpoint.id }
			data-health={ healthOf( endpoint ) }
		>
			<header className="si-endpoint__header">
				<Code className="si-endpoint__url">{ endpoint.url }</Code>
				{ active ? (
					endpoint.failing_since ? (
						<StatusBadge tone="warning">
							{ _x( 'Active, failing', 'endpoint status', 'service-integration' ) }
						</StatusBadge>
					) : (
						<StatusBadge tone="success">
							{ _x( 'Active', 'endpoint status', 'service-integration' ) }
						</StatusBadge>
					)
				) : (
					<StatusBadge tone="error">
						{ _x( 'Disabled', 'endpoint status', 'service-integration' ) }
					</StatusBadge>
				) }
			</header>
			<dl className="si-facts">
				{ endpoint.description ? (
					<>
						<dt>{ __( 'Description', 'service-integration' ) }</dt>
						<dd>{ endpoint.description }</dd>
					</>
				) : null }
				<dt>{ __( 'Events', 'service-integration' ) }</dt>
				<dd>
					{ endpoint.event_types.length
						? endpoint.event_types.map( eventTypeLabel ).join( ', ' )
						: __( 'All events', 'service-integration' ) }
				</dd>
				<dt>{ __( 'Signing secret', 'service-integration' ) }</dt>
				<dd>
					{ current ? <SecretMask masked={ current.masked } /> : NONE }
					{ previous.length
						? ` ${ sprintf(
								/* translators: %s: date and time. */ __(
									'(the previous one also signs until %s)',
									'service-integration'
								),
								formatDateTime( previous[ 0 ]?.expires_at )
							) }`
						: null }
				</dd>
				<dt>{ __( 'WooCommerce headers', 'service-integration' ) }</dt>
				<dd>
					{ endpoint.wc_compat_signature
						? __( 'Yes', 'service-integration' )
						: __( 'No', 'service-integration' ) }
				</dd>
				<dt>{ __( 'Send again on recovery', 'service-integration' ) }</dt>
				<dd className="si-endpoint__resend-on-recovery">
					{ endpoint.resend_failed_on_recovery
						? __( 'Yes', 'service-integration' )
						: __( 'No', 'service-integration' ) }
				</dd>
				{ health ? (
					<>
						<dt>{ __( 'Recent success rate', 'service-integration' ) }</dt>
						<dd className="si-endpoint__success-rate">
							{ rate === null
								? __( 'No attempt in the last 24 hours', 'service-integration' )
								: sprintf(
										/* translators: 1: a percentage, 2: number of attempts. */
										_n(
											'%1$s of the last %2$d attempt (24 hours)',
											'%1$s of the last %2$d attempts (24 hours)',
											health.recent_attempts,
											'service-integration'
										),
										formatPercent( rate ),
										health.recent_attempts
									) }
						</dd>
						<dt>{ __( 'Last error', 'service-integration' ) }</dt>
						<dd className="si-endpoint__last-error">
							{ lastError
								? sprintf(
										/* translators: 1: date and time, 2: the error, such as an HTTP status with the start of the answer. */ __(
											'%1$s — %2$s',
											'service-integration'
										),
										formatDateTime( lastError.at ),
										lastError.message
									)
								: __( 'None among the recent attempts', 'service-integration' ) }
						</dd>
					</>
				) : null }
				{ endpoint.failing_since ? (
					<>
						<dt>{ __( 'Failing since', 'service-integration' ) }</dt>
						<dd>{ formatDateTime( endpoint.failing_since ) }</dd>
					</>
				) : null }
				{ ! active ? (
					<>
						<dt>{ _x( 'Disabled', 'when the endpoint was disabled, and why', 'service-integration' ) }</dt>
						<dd>
							{ formatDateTime( endpoint.disabled_at ) }
							{ endpoint.disabled_reason ? ` — ${ endpoint.disabled_reason }` : null }
						</dd>
						{ endpoint.disabled_by === 'auto' ? (
							<dd className="si-endpoint__held">
								{ __(
									'Its events are kept, none is lost. Once the receiver is fixed, enabling the endpoint again sends what it missed, in order.',
									'service-integration'
								) }
							</dd>
						) : null }
					</>
				) : null }
			</dl>
			<div className="si-endpoint__actions">
				<Button
					variant="secondary"
					size="compact"
					onClick={ onEdit }
					disabled={ busy !== null }
					aria-label={ sprintf(
						/* translators: %s: endpoint URL. */ __( 'Edit %s', 'service-integration' ),
						endpoint.url
					) }
				>
					{ __( 'Edit', 'service-integration' ) }
				</Button>
				<ConfirmButton
					isDestructive={ false }
					question={ __(
						'Rotate the secret? The old one keeps signing for 24 hours.',
						'service-integration'
					) }
					confirmLabel={ __( 'Rotate', 'service-integration' ) }
					label={ sprintf(
						/* translators: %s: an endpoint's URL or an inbound source's identifier. */ __(
							'Rotate the secret of %s',
							'service-integration'
						),
						endpoint.url
					) }
					isBusy={ busy === `rotate-${ endpoint.id }` }
					disabled={ busy !== null }
					onConfirm={ onRotate }
				>
					{ __( 'Rotate secret', 'service-integration' ) }
				</ConfirmButton>
				<EnableToggle
					active={ active }
					subject={ endpoint.url }
					isBusy={ busy === `toggle-${ endpoint.id }` }
					disabled={ busy !== null }
					onToggle={ onToggle }
				/>
				{ active ? (
					<Button
						variant="secondary"
						size="compact"
						onClick={ onTest }
						isBusy={ busy === `test-${ endpoint.id }` }
						disabled={ busy !== null }
						aria-label={ sprintf(
							/* translators: %s: endpoint URL. */ __( 'Send a test event to %s', 'service-integration' ),
							endpoint.url
						) }
					>
						{ __( 'Send a test event', 'service-integration' ) }
					</Button>
				) : null }
				{ active ? (
					<Button
						variant="secondary"
						size="compact"
						onClick={ onReplay }
						aria-expanded={ replaying }
						disabled={ busy !== null }
						aria-label={ sprintf(
							/* translators: %s: endpoint URL. */ __( 'Replay events to %s', 'service-integration' ),
							endpoint.url
						) }
					>
						{ __( 'Replay events', 'service-integration' ) }
					</Button>
				) : null }
				{ ! active && endpoint.disabled_by === 'owner' ? (
					<Button
						variant="secondary"
						size="compact"
						onClick={ onResend }
						isBusy={ busy === `resend-${ endpoint.id }` }
						disabled={ busy !== null }
						aria-label={ sprintf(
							/* translators: %s: endpoint URL. */ __( 'Enable and resend: %s', 'service-integration' ),
							endpoint.url
						) }
					>
						{ __( 'Enable and resend', 'service-integration' ) }
					</Button>
				) : null }
				<DeleteButton
					subject={ endpoint.url }
					question={ __( 'Delete this endpoint and its delivery history?', 'service-integration' ) }
					isBusy={ busy === `delete-${ endpoint.id }` }
					disabled={ busy !== null }
					onConfirm={ onDelete }
				/>
			</div>
		</article>
	);
}
