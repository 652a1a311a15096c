import { Notice } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import type { InboundSourceWithSecret } from '../api/inbound';
import { Code } from '../components/Code';
import { CopyButton } from '../components/CopyButton';
import { SecretOnce, type SecretField } from '../components/SecretOnce';

export interface RevealedSecret {
	source: InboundSourceWithSecret;
	rotated: boolean;
}

/** A source just added or given a new secret: where the service sends, and the secret, shown once. */
export function RevealedSource( { revealed, onDismiss }: { revealed: RevealedSecret; onDismiss: () => void } ) {
	const { source, rotated } = revealed;
	const title = rotated
		? sprintf(
				/* translators: %s: source identifier. */ __( 'New secret for %s saved', 'service-integration' ),
				source.id
			)
		: sprintf(
				/* translators: %s: source identifier. */ __( 'Source %s added', 'service-integration' ),
				source.id
			);
	if ( ! source.secret ) {
		// The remote service's own secret: nothing to reveal, only where to send.
		return (
			<Notice status="success" onRemove={ onDismiss } className="si-notice si-source-saved">
				<p>
					<strong>{ title }</strong>
				</p>
				{ source.receiving_url ? (
					<p>
						{ __( 'Give the remote service this receiving URL:', 'service-integration' ) }{ ' ' }
						<Code>{ source.receiving_url }</Code>{ ' ' }
						<CopyButton
							text={ source.receiving_url }
							label={ __( 'Copy the URL', 'service-integration' ) }
						/>
					</p>
				) : null }
			</Notice>
		);
	}
	const fields: SecretField[] = [
		{
			label: __( 'Signing secret', 'service-integration' ),
			value: source.secret,
			copyLabel: __( 'Copy the secret', 'service-integration' ),
		},
	];
	if ( source.receiving_url ) {
		fields.unshift( {
			label: __( 'Receiving URL', 'service-integration' ),
			value: source.receiving_url,
			copyLabel: __( 'Copy the URL', 'service-integration' ),
		} );
	}
	return (
		<SecretOnce title={ title } fields={ fields } onDismiss={ onDismiss }>
			<p className="si-help">
				{ __( 'Give the remote service the receiving URL and this signing secret.', 'service-integration' ) }
			</p>
		</SecretOnce>
	);
}
