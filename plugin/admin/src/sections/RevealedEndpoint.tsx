import { __, sprintf } from '@wordpress/i18n';
import type { EndpointWithSecret } from '../api/webhooks';
import { SecretOnce } from '../components/SecretOnce';

export interface RevealedSecret {
	endpoint: EndpointWithSecret;
	rotated: boolean;
}

/** An endpoint just added or given a new secret: the signing secret, shown once. */
export function RevealedEndpoint( { revealed, onDismiss }: { revealed: RevealedSecret; onDismiss: () => void } ) {
	return (
		<SecretOnce
			title={
				revealed.rotated
					? __( 'New signing secret', 'service-integration' )
					: sprintf(
							/* translators: %s: endpoint URL. */ __( 'Endpoint added: %s', 'service-integration' ),
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
			onDismiss={ onDismiss }
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
	);
}
