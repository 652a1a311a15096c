import { Button } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';

/** Disables what is active, enables what is not; `subject` names it for screen readers. */
export function EnableToggle( {
	active,
	subject,
	isBusy,
	disabled,
	onToggle,
}: {
	active: boolean;
	subject: string;
	isBusy: boolean;
	disabled: boolean;
	onToggle: () => void;
} ) {
	return (
		<Button
			variant="secondary"
			size="compact"
			onClick={ onToggle }
			isBusy={ isBusy }
			disabled={ disabled }
			aria-label={
				active
					? /* translators: %s: an endpoint's URL or an inbound source's identifier. */ sprintf(
							__( 'Disable %s', 'service-integration' ),
							subject
						)
					: /* translators: %s: an endpoint's URL or an inbound source's identifier. */ sprintf(
							__( 'Enable %s', 'service-integration' ),
							subject
						)
			}
		>
			{ active ? __( 'Disable', 'service-integration' ) : __( 'Enable', 'service-integration' ) }
		</Button>
	);
}
