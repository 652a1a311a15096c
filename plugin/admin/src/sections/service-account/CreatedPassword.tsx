import { __, sprintf } from '@wordpress/i18n';
import type { CreatedPassword as Created } from '../../api/service-account';
import { SecretOnce } from '../../components/SecretOnce';

/** A new application password, shown once: the user name, the password and the header they make. */
export function CreatedPassword( { created, onDismiss }: { created: Created; onDismiss: () => void } ) {
	return (
		<SecretOnce
			title={ sprintf(
				/* translators: %s: name of the application password. */ __(
					'Application password "%s" created',
					'service-integration'
				),
				created.name
			) }
			fields={ [
				{
					label: __( 'User name', 'service-integration' ),
					value: created.username,
					copyLabel: __( 'Copy the user name', 'service-integration' ),
				},
				{
					label: __( 'Application password', 'service-integration' ),
					value: created.password,
					copyLabel: __( 'Copy the password', 'service-integration' ),
				},
				{
					label: __( 'Authorization header value', 'service-integration' ),
					value: created.authorization,
					copyLabel: __( 'Copy the header', 'service-integration' ),
				},
			] }
			onDismiss={ onDismiss }
		>
			<p className="si-help">
				{ __(
					'Your tool sends it as the HTTP header "Authorization" (HTTP Basic with the user name and this password).',
					'service-integration'
				) }
			</p>
		</SecretOnce>
	);
}
