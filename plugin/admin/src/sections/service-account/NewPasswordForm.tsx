import { Button, TextControl } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

interface Props {
	name: string;
	onName: ( name: string ) => void;
	onSubmit: () => void;
	/** Key of the change in progress, or null. */
	busy: string | null;
}

/** The name of a new application password and the button that creates it. */
export function NewPasswordForm( { name, onName, onSubmit, busy }: Props ) {
	return (
		<form
			className="si-inline-form"
			noValidate
			onSubmit={ ( event ) => {
				event.preventDefault();
				onSubmit();
			} }
		>
			<TextControl
				__nextHasNoMarginBottom
				__next40pxDefaultSize
				label={ __( 'Name of the new application password', 'service-integration' ) }
				help={ __( 'Name it after the tool that will use it, e.g. n8n.', 'service-integration' ) }
				value={ name }
				onChange={ ( value: string ) => onName( value ) }
				maxLength={ 100 }
			/>
			<Button variant="primary" type="submit" isBusy={ busy === 'create-password' } disabled={ busy !== null }>
				{ __( 'Create application password', 'service-integration' ) }
			</Button>
		</form>
	);
}
