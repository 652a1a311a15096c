import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import { createApplicationPassword, revokeApplicationPassword, type CreatedPassword } from '../../api/service-account';
import type { Action } from '../../hooks/use-action';

/** The application passwords' changes: the new one's name being typed, the one just created (shown once), revoking. */
export interface ApplicationPasswords {
	name: string;
	setName: ( name: string ) => void;
	/** The password just created, until dismissed or revoked. */
	created: CreatedPassword | null;
	dismissCreated: () => void;
	add: () => void;
	revoke: ( uuid: string ) => void;
}

/**
 * Kept by the section rather than by the passwords' panel, so the typed name and the password
 * shown once outlive a reload that hides the panel for a moment.
 */
export function useApplicationPasswords( action: Action, onChanged: () => void ): ApplicationPasswords {
	const [ name, setName ] = useState( '' );
	const [ created, setCreated ] = useState< CreatedPassword | null >( null );

	const add = async () => {
		const trimmed = name.trim();
		if ( ! trimmed ) {
			action.invalid(
				__(
					'Enter a name for the application password, e.g. the tool that will use it.',
					'service-integration'
				),
				'name'
			);
			return;
		}
		const answer = await action.run( 'create-password', () => createApplicationPassword( trimmed ) );
		if ( answer ) {
			setCreated( answer );
			setName( '' );
			onChanged();
		}
	};
	const revoke = async ( uuid: string ) => {
		if ( await action.run( `revoke-${ uuid }`, () => revokeApplicationPassword( uuid ) ) ) {
			if ( created?.uuid === uuid ) {
				setCreated( null );
			}
			onChanged();
		}
	};
	return {
		name,
		setName,
		created,
		dismissCreated: () => setCreated( null ),
		add: () => void add(),
		revoke: ( uuid ) => void revoke( uuid ),
	};
}
