import { Button } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

interface Props {
	/** Visible text of the first button. */
	children: React.ReactNode;
	/** Question shown once clicked, e.g. "Revoke this password?" */
	question: string;
	confirmLabel: string;
	onConfirm: () => void;
	isBusy?: boolean;
	disabled?: boolean;
	isDestructive?: boolean;
	/** Accessible name when the visible text is ambiguous in a table row. */
	label?: string;
}

/** Two-step button for irreversible changes: no browser dialog, keyboard-friendly. */
export function ConfirmButton( {
	children,
	question,
	confirmLabel,
	onConfirm,
	isBusy,
	disabled,
	isDestructive = true,
	label,
}: Props ) {
	const [ asking, setAsking ] = useState( false );
	if ( ! asking ) {
		return (
			<Button
				variant="secondary"
				size="compact"
				isDestructive={ isDestructive }
				isBusy={ isBusy }
				disabled={ disabled || isBusy }
				aria-label={ label }
				onClick={ () => setAsking( true ) }
			>
				{ children }
			</Button>
		);
	}
	return (
		<span className="si-confirm" role="group" aria-label={ question }>
			<span className="si-confirm__question">{ question }</span>
			<Button
				variant="primary"
				size="compact"
				isDestructive={ isDestructive }
				onClick={ () => {
					setAsking( false );
					onConfirm();
				} }
			>
				{ confirmLabel }
			</Button>
			<Button variant="tertiary" size="compact" onClick={ () => setAsking( false ) }>
				{ __( 'Cancel', 'service-integration' ) }
			</Button>
		</span>
	);
}
