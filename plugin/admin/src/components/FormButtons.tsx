import { Button } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

interface Props {
	/** The submit button's label ("Add source", "Rotate"). */
	submitLabel: string;
	busy: boolean;
	/** Cancel, when the form can be closed without submitting. */
	onCancel?: () => void;
}

/** A form's submit and Cancel buttons, side by side under its fields. */
export function FormButtons( { submitLabel, busy, onCancel }: Props ) {
	return (
		<div className="si-form__buttons">
			<Button variant="primary" type="submit" isBusy={ busy } disabled={ busy }>
				{ submitLabel }
			</Button>
			{ onCancel ? (
				<Button variant="tertiary" onClick={ onCancel }>
					{ __( 'Cancel', 'service-integration' ) }
				</Button>
			) : null }
		</div>
	);
}
