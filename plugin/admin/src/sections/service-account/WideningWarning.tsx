import { Button, Notice } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';

interface Props {
	/** The capabilities another plugin or filter tried to give the role. */
	widening: string[];
	busy: boolean;
	onForget: () => void;
}

/** What was refused to the integration role, until the owner has removed its source and forgets it. */
export function WideningWarning( { widening, busy, onForget }: Props ) {
	if ( widening.length === 0 ) {
		return null;
	}
	return (
		<Notice status="error" isDismissible={ false } className="si-notice si-widening">
			<p>
				<strong>{ __( 'Widening detected.', 'service-integration' ) }</strong>{ ' ' }
				{ sprintf(
					/* translators: %s: comma-separated capability names. */
					_n(
						'Another plugin or filter tried to give the integration role a capability it must not have: %s. It is refused; remove its source.',
						'Another plugin or filter tried to give the integration role capabilities it must not have: %s. They are refused; remove their source.',
						widening.length,
						'service-integration'
					),
					widening.join( ', ' )
				) }
			</p>
			<Button variant="secondary" size="compact" isBusy={ busy } disabled={ busy } onClick={ onForget }>
				{ __( 'Forget what was reported', 'service-integration' ) }
			</Button>
		</Notice>
	);
}
