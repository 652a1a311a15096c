import { __, sprintf } from '@wordpress/i18n';
import { ConfirmButton } from './ConfirmButton';

interface Props {
	/** What is deleted, as the reader knows it: an endpoint's URL, a source's identifier. */
	subject: string;
	/** The question asked before deleting, which says what goes with it. */
	question: string;
	isBusy: boolean;
	disabled: boolean;
	onConfirm: () => void;
}

/** "Delete", asked once more, named after what it deletes for screen readers. */
export function DeleteButton( { subject, question, isBusy, disabled, onConfirm }: Props ) {
	return (
		<ConfirmButton
			question={ question }
			confirmLabel={ __( 'Delete', 'service-integration' ) }
			label={ sprintf(
				/* translators: %s: an endpoint's URL or an inbound source's identifier. */ __(
					'Delete %s',
					'service-integration'
				),
				subject
			) }
			isBusy={ isBusy }
			disabled={ disabled }
			onConfirm={ onConfirm }
		>
			{ __( 'Delete', 'service-integration' ) }
		</ConfirmButton>
	);
}
