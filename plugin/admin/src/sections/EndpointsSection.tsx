import { Button, Notice } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, _n, _x, sprintf } from '@wordpress/i18n';
import {
	createEndpoint,
	deleteEndpoint,
	disableEndpoint,
	enableEndpoint,
	listEndpoints,
	rotateEndpointSecret,
	sendTestEvent,
	updateEndpoint,
	type Endpoint,
	type EndpointInput,
	type EndpointWithSecret,
} from '../api/webhooks';
import { Code, SecretMask } from '../components/Code';
import { ConfirmButton } from '../components/ConfirmButton';
import { EnableToggle } from '../components/EnableToggle';
import { ErrorNotice } from '../components/ErrorNotice';
import { formatDateTime, formatPercent, NONE } from '../components/format';
import { LoadingState } from '../components/LoadingState';
import { SecretOnce } from '../components/SecretOnce';
import { Section } from '../components/Section';
import { StatusBadge } from '../components/StatusBadge';
import { useAction } from '../hooks/use-action';
import { useResource } from '../hooks/use-resource';
import { eventTypeLabel } from '../components/EventTypeCheckboxes';
import { EndpointForm } from './EndpointForm';
import { ReplayRangeForm } from './ReplayRangeForm';

interface RevealedSecret {
	endpoint: EndpointWithSecret;
	rotated: boolean;
}

/** Outbound webhook endpoints: add, edit, rotate the secret, disable/enable, replay a time range, delete; their health. */
export function EndpointsSection() {
	const endpoints = useResource( listEndpoints, [] );
	const action = useAction();
	const [ adding, setAdding ] = useState( false );
	const [ editing, setEditing ] = useState< string | null >( null );
	const [ replaying, setReplaying ] = useState< string | null >( null );
	const [ revealed, setRevealed ] = useState< RevealedSecret | null >( null );
	const [ message, setMessage ] = useState< string | null >( null );

	const done = ( text: string | null ) => {
		setMessage( text );
		endpoints.reload();
	};

	const add = async ( input: EndpointInput ) => {
		const created = await action.run( 'add', () => createEndpoint( input ) );
		if ( created ) {
			setRevealed( { endpoint: created, rotated: false } );
			setAdding( false );
			done( null );
		}
	};
	const save = async ( id: string, input: EndpointInput ) => {
		if ( await action.run( `edit-${ id }`, () => updateEndpoint( id, input ) ) ) {
			setEditing( null );
			done( __( 'Endpoint saved.', 'service-integration' ) );
		}
	};
	const rotate = async ( id: string ) => {
		const rotated = await action.run( `rotate-${ id }`, () => rotateEndpointSecret( id ) );
		if ( rotated ) {
			setRevealed( { endpoint: rotated, rotated: true } );
			done( null );
		}
	};
	const setEnabled = async ( id: string, enabled: boolean, redeliver?: boolean ) => {
		// Disabling requeues and skips nothing: its answer is the endpoint alone.
		const answer = await action.run( redeliver ? `resend-${ id }` : `toggle-${ id }`, async () =>
			enabled ? enableEndpoint( id, redeliver ) : { ...( await disableEndpoint( id ) ), requeued: 0, skipped: 0 }
		);
		if ( answer ) {
			const { requeued, skipped } = answer;
			if ( ! enabled ) {
				done(
					__(
						'Endpoint disabled; its queued deliveries are cancelled. Enabling it again sends what it missed only if you ask.',
						'service-integration'
					)
				);
			} else if ( skipped > 0 ) {
				done(
					sprintf(
						/* translators: %d: number of deliveries not sent. */
						_n(
							'Endpoint enabled; %d delivery it missed while disabled was not sent. To send it, disable the endpoint and use “Enable and resend”.',
							'Endpoint enabled; %d deliveries it missed while disabled were not sent. To send them, disable the endpoint and use “Enable and resend”.',
							skipped,
							'service-integration'
						),
						skipped
					)
				);
			} else {
				done(
					sprintf(
						/* translators: %d: number of deliveries sent again. */ _n(
							'Endpoint enabled; %d delivery requeued.',
							'Endpoint enabled; %d deliveries requeued.',
							requeued,
							'service-integration'
						),
						requeued
					)
				);
			}
		}
	};
	const test = async ( id: string ) => {
		const sent = await action.run( `test-${ id }`, () => sendTestEvent( id ) );
		if ( sent ) {
			done(
				sprintf(
					/* translators: %s: event id. */ __(
						'Test event %s queued: it is signed and sent like an order event, to this endpoint only. Its delivery shows under Deliveries.',
						'service-integration'
					),
					sent.event_id
				)
			);
		}
	};
	const remove = async ( id: string ) => {
		if ( await action.run( `delete-${ id }`, () => deleteEndpoint( id ) ) ) {
			if ( revealed?.endpoint.id === id ) {
				setRevealed( null );
			}
			done( __( 'Endpoint deleted, with its delivery history.', 'service-integration' ) );
		}
	};

	const notAvailable = endpoints.error?.code === 'rest_no_route';

	return (
		<Section
			title={ __( 'Outbound endpoints', 'service-integration' ) }
			description={ __(
				'The URLs that receive signed order webhooks (Standard Webhooks). The sidecar retries failed deliveries with backoff and disables an endpoint that keeps failing.',
				'service-integration'
			) }
			actions={
				endpoints.data && ! notAvailable ? (
					<>
						<Button
							variant="secondary"
							size="compact"
							onClick={ endpoints.reload }
							isBusy={ endpoints.loading }
							disabled={ endpoints.loading }
						>
							{ __( 'Refresh', 'service-integration' ) }
						</Button>
						{ ! adding ? (
							<Button variant="primary" size="compact" onClick={ () => setAdding( true ) }>
								{ __( 'Add an endpoint', 'service-integration' ) }
							</Button>
						) : null }
					</>
				) : null
			}
		>
			{ message ? (
				<Notice status="success" onRemove={ () => setMessage( null ) } className="si-notice">
					{ message }
				</Notice>
			) : null }
			{ action.error ? <ErrorNotice error={ action.error } onDismiss={ action.clearError } /> : null }
			{ revealed ? (
				<SecretOnce
					title={
						revealed.rotated
							? __( 'New signing secret', 'service-integration' )
							: sprintf(
									/* translators: %s: endpoint URL. */ __(
										'Endpoint added: %s',
										'service-integration'
									),
									revealed.endpoint.url
								)
					}
					fields={ [
						{
							label: __( 'Signing secret', 'service-integration' ),
							value: revealed.endpoint.secret,
							copyLabel: __( 'Copy the secret', 'service-integration' ),
						},
					] }
					onDismiss={ () => setRevealed( null ) }
				>
					<p className="si-help">
						{ revealed.rotated
							? __(
									'Give it to the receiver. The previous secret keeps signing too (a second signature) for 24 hours, so the receiver can switch without missing a delivery.',
									'service-integration'
								)
							: __(
									'Give it to the receiver: it verifies the webhook-signature header with it (any Standard Webhooks library does).',
									'service-integration'
								) }
					</p>
				</SecretOnce>
			) : null }
			{ adding ? (
				<div className="si-subsection si-panel">
					<h3>{ __( 'Add an endpoint', 'service-integration' ) }</h3>
					<EndpointForm
						busy={ action.busy === 'add' }
						onSubmit={ ( input ) => void add( input ) }
						onInvalid={ action.invalid }
						onCancel={ () => setAdding( false ) }
					/>
				</div>
			) : null }
			{ endpoints.loading && ! endpoints.data ? (
				<LoadingState label={ __( 'Loading the endpoints…', 'service-integration' ) } />
			) : null }
			{ endpoints.error ? (
				<ErrorNotice
					error={ endpoints.error }
					context={ __( 'Loading the endpoints', 'service-integration' ) }
					onRetry={ endpoints.reload }
				/>
			) : null }
			{ endpoints.data && ! endpoints.error ? (
				endpoints.data.length === 0 ? (
					<p className="si-empty">
						{ __( 'No endpoint yet. Add one to start sending order webhooks.', 'service-integration' ) }
					</p>
				) : (
					<ul className="si-endpoints">
						{ endpoints.data.map( ( endpoint ) => (
							<li key={ endpoint.id }>
								{ editing === endpoint.id ? (
									<div className="si-endpoint si-panel">
										<EndpointForm
											initial={ endpoint }
											busy={ action.busy === `edit-${ endpoint.id }` }
											onSubmit={ ( input ) => void save( endpoint.id, input ) }
											onInvalid={ action.invalid }
											onCancel={ () => setEditing( null ) }
										/>
									</div>
								) : (
									<EndpointCard
										endpoint={ endpoint }
										busy={ action.busy }
										onEdit={ () => setEditing( endpoint.id ) }
										onRotate={ () => void rotate( endpoint.id ) }
										onToggle={ () => void setEnabled( endpoint.id, endpoint.status !== 'active' ) }
										onResend={ () => void setEnabled( endpoint.id, true, true ) }
										onTest={ () => void test( endpoint.id ) }
										onDelete={ () => void remove( endpoint.id ) }
										replaying={ replaying === endpoint.id }
										onReplay={ () =>
											setReplaying( replaying === endpoint.id ? null : endpoint.id )
										}
									/>
								) }
								{ replaying === endpoint.id &&
								editing !== endpoint.id &&
								endpoint.status === 'active' ? (
									<ReplayRangeForm
										endpoint={ endpoint }
										action={ action }
										onClose={ () => setReplaying( null ) }
									/>
								) : null }
							</li>
						) ) }
					</ul>
				)
			) : null }
		</Section>
	);
}

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

function EndpointCard( {
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
				<ConfirmButton
					question={ __( 'Delete this endpoint and its delivery history?', 'service-integration' ) }
					confirmLabel={ __( 'Delete', 'service-integration' ) }
					label={ sprintf(
						/* translators: %s: an endpoint's URL or an inbound source's identifier. */ __(
							'Delete %s',
							'service-integration'
						),
						endpoint.url
					) }
					isBusy={ busy === `delete-${ endpoint.id }` }
					disabled={ busy !== null }
					onConfirm={ onDelete }
				>
					{ __( 'Delete', 'service-integration' ) }
				</ConfirmButton>
			</div>
		</article>
	);
}
