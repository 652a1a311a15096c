import { Button } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import { useCopyToClipboard } from '../hooks/use-copy-to-clipboard';

interface Props {
	text: string;
	/** Accessible name, e.g. "Copy the password". */
	label: string;
}

/** A button that copies `text`, with the outcome announced beside it. */
export function CopyButton( { text, label }: Props ) {
	const { state, copy } = useCopyToClipboard();
	return (
		<span className="si-copy">
			<Button variant="secondary" size="compact" onClick={ () => copy( text ) }>
				{ label }
			</Button>
			<span className="si-copy__status" role="status" aria-live="polite">
				{ state === 'copied' ? __( 'Copied!', 'service-integration' ) : null }
				{ state === 'failed'
					? __( 'Could not copy: select the text and copy it by hand.', 'service-integration' )
					: null }
			</span>
		</span>
	);
}
