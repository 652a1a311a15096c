import { Notice } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import type { ServiceAccountState } from '../../api/service-account';
import { CreatedPassword } from './CreatedPassword';
import { NewPasswordForm } from './NewPasswordForm';
import { PasswordTable } from './PasswordTable';
import type { ApplicationPasswords as Passwords } from './use-application-passwords';

interface Props {
	state: ServiceAccountState;
	passwords: Passwords;
	/** Key of the change in progress, or null. */
	busy: string | null;
}

/** The account's application passwords: whether the site allows them, the one just created, a new one, the list. */
export function ApplicationPasswords( { state, passwords, busy }: Props ) {
	return (
		<div className="si-subsection">
			<h3>{ __( 'Application passwords', 'service-integration' ) }</h3>
			{ ! state.application_passwords_available ? (
				<Notice status="warning" isDismissible={ false }>
					{ __(
						'Application passwords are not available on this site: they need HTTPS, or a local environment (WP_ENVIRONMENT_TYPE "local").',
						'service-integration'
					) }
				</Notice>
			) : null }
			{ passwords.created ? (
				<CreatedPassword created={ passwords.created } onDismiss={ passwords.dismissCreated } />
			) : null }
			<NewPasswordForm
				name={ passwords.name }
				onName={ passwords.setName }
				onSubmit={ passwords.add }
				busy={ busy }
			/>
			<PasswordTable passwords={ state.application_passwords } busy={ busy } onRevoke={ passwords.revoke } />
		</div>
	);
}
