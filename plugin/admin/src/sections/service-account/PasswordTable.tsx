import { __, sprintf } from '@wordpress/i18n';
import type { ServiceAccountState } from '../../api/service-account';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable } from '../../components/DataTable';
import { formatDateTime, NONE } from '../../components/format';

interface Props {
	passwords: ServiceAccountState[ 'application_passwords' ];
	/** Key of the change in progress, or null. */
	busy: string | null;
	onRevoke: ( uuid: string ) => void;
}

/** The account's application passwords, when each was created and last used, and their Revoke buttons. */
export function PasswordTable( { passwords, busy, onRevoke }: Props ) {
	if ( passwords.length === 0 ) {
		return <p className="si-empty">{ __( 'The account has no application password.', 'service-integration' ) }</p>;
	}
	return (
		<DataTable
			caption={ __( 'Application passwords of the service account', 'service-integration' ) }
			className="si-passwords"
			columns={ [
				{ label: __( 'Name', 'service-integration' ), render: ( password ) => password.name },
				{
					label: __( 'Created', 'service-integration' ),
					render: ( password ) => formatDateTime( password.created ),
				},
				{
					label: __( 'Last used', 'service-integration' ),
					render: ( password ) => formatDateTime( password.last_used ),
				},
				{ label: __( 'Last IP', 'service-integration' ), render: ( password ) => password.last_ip ?? NONE },
				{
					label: __( 'Actions', 'service-integration' ),
					render: ( password ) => (
						<ConfirmButton
							question={ sprintf(
								/* translators: %s: name of the application password. */ __(
									'Revoke "%s"? Tools using it stop working.',
									'service-integration'
								),
								password.name
							) }
							confirmLabel={ __( 'Revoke', 'service-integration' ) }
							label={ sprintf(
								/* translators: %s: name of the application password. */ __(
									'Revoke the application password "%s"',
									'service-integration'
								),
								password.name
							) }
							isBusy={ busy === `revoke-${ password.uuid }` }
							disabled={ busy !== null }
							onConfirm={ () => onRevoke( password.uuid ) }
						>
							{ __( 'Revoke', 'service-integration' ) }
						</ConfirmButton>
					),
				},
			] }
			rows={ passwords }
			rowKey={ ( password ) => password.uuid }
			rowAttributes={ ( password ) => ( { 'data-uuid': password.uuid } ) }
		/>
	);
}
