import { Button } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import type { Endpoint } from '../../api/webhooks';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DeleteButton } from '../../components/DeleteButton';
import { EnableToggle } from '../../components/EnableToggle';

export interface EndpointActionsProps {
	/** Key of the change in progress, or null. */
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

interface CardButtonProps {
	text: string;
	/** The accessible name, which names the endpoint. */
	label: string;
	onClick: () => void;
	isBusy?: boolean;
	disabled: boolean;
	expanded?: boolean;
}

/** One of the card's compact secondary buttons. */
function CardButton( { text, label, onClick, isBusy, disabled, expanded }: CardButtonProps ) {
	return (
		<Button
			variant="secondary"
			size="compact"
			onClick={ onClick }
			isBusy={ isBusy }
			aria-expanded={ expanded }
			disabled={ disabled }
			aria-label={ label }
		>
			{ text }
		</Button>
	);
}

/** The card's buttons: edit, rotate the secret, disable/enable, test, replay, enable and resend, delete. */
export function EndpointActions( {
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
}: EndpointActionsProps & { endpoint: Endpoint } ) {
	const active = endpoint.status === 'active';
	const locked = busy !== null;
	return (
		<div className="si-endpoint__actions">
			<CardButton
				text={ __( 'Edit', 'service-integration' ) }
				label={ sprintf(
					/* translators: %s: endpoint URL. */ __( 'Edit %s', 'service-integration' ),
					endpoint.url
				) }
				onClick={ onEdit }
				disabled={ locked }
			/>
			<ConfirmButton
				isDestructive={ false }
				question={ __( 'Rotate the secret? The old one keeps signing for 24 hours.', 'service-integration' ) }
				confirmLabel={ __( 'Rotate', 'service-integration' ) }
				label={ sprintf(
					/* translators: %s: an endpoint's URL or an inbound source's identifier. */ __(
						'Rotate the secret of %s',
						'service-integration'
					),
					endpoint.url
				) }
				isBusy={ busy === `rotate-${ endpoint.id }` }
				disabled={ locked }
				onConfirm={ onRotate }
			>
				{ __( 'Rotate secret', 'service-integration' ) }
			</ConfirmButton>
			<EnableToggle
				active={ active }
				subject={ endpoint.url }
				isBusy={ busy === `toggle-${ endpoint.id }` }
				disabled={ locked }
				onToggle={ onToggle }
			/>
			{ active ? (
				<CardButton
					text={ __( 'Send a test event', 'service-integration' ) }
					label={ sprintf(
						/* translators: %s: endpoint URL. */ __( 'Send a test event to %s', 'service-integration' ),
						endpoint.url
					) }
					onClick={ onTest }
					isBusy={ busy === `test-${ endpoint.id }` }
					disabled={ locked }
				/>
			) : null }
			{ active ? (
				<CardButton
					text={ __( 'Replay events', 'service-integration' ) }
					label={ sprintf(
						/* translators: %s: endpoint URL. */ __( 'Replay events to %s', 'service-integration' ),
						endpoint.url
					) }
					onClick={ onReplay }
					expanded={ replaying }
					disabled={ locked }
				/>
			) : null }
			{ ! active && endpoint.disabled_by === 'owner' ? (
				<CardButton
					text={ __( 'Enable and resend', 'service-integration' ) }
					label={ sprintf(
						/* translators: %s: endpoint URL. */ __( 'Enable and resend: %s', 'service-integration' ),
						endpoint.url
					) }
					onClick={ onResend }
					isBusy={ busy === `resend-${ endpoint.id }` }
					disabled={ locked }
				/>
			) : null }
			<DeleteButton
				subject={ endpoint.url }
				question={ __( 'Delete this endpoint and its delivery history?', 'service-integration' ) }
				isBusy={ busy === `delete-${ endpoint.id }` }
				disabled={ locked }
				onConfirm={ onDelete }
			/>
		</div>
	);
}
