import { Button } from '@wordpress/components';
import { useEffect, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

/** The async Clipboard API where the page may use it, else a hidden textarea and execCommand. */
export async function copyText( text: string ): Promise< boolean > {
	try {
		if ( window.isSecureContext && navigator.clipboard?.writeText ) {
			await navigator.clipboard.writeText( text );
			return true;
		}
	} catch {
		// Permission refused or not focused: try the fallback.
	}
	const area = document.createElement( 'textarea' );
	area.value = text;
	area.setAttribute( 'readonly', '' );
	area.style.position = 'fixed';
	area.style.opacity = '0';
	document.body.appendChild( area );
	area.select();
	let copied = false;
	try {
		copied = document.execCommand( 'copy' );
	} catch {
		copied = false;
	}
	area.remove();
	return copied;
}

interface Props {
	text: string;
	/** Accessible name, e.g. "Copy the password". */
	label: string;
}

export function CopyButton( { text, label }: Props ) {
	const [ state, setState ] = useState< 'idle' | 'copied' | 'failed' >( 'idle' );
	useEffect( () => {
		if ( state === 'idle' ) {
			return undefined;
		}
		const timer = window.setTimeout( () => setState( 'idle' ), 3000 );
		return () => window.clearTimeout( timer );
	}, [ state ] );

	return (
		<span className="si-copy">
			<Button
				variant="secondary"
				size="compact"
				onClick={ () => void copyText( text ).then( ( ok ) => setState( ok ? 'copied' : 'failed' ) ) }
			>
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
