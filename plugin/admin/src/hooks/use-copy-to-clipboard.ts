/**
 * Copies text to the clipboard and says how it went, for three seconds: what every copy
 * button on the page shows beside itself ("Copied!" or how to copy by hand).
 */
import { useCallback, useEffect, useState } from '@wordpress/element';

export type CopyState = 'idle' | 'copied' | 'failed';

/** How long "Copied!" (or the failure) stays before the button is back to idle. */
const SHOWN_MS = 3000;

/** The async Clipboard API where the page may use it, else a hidden textarea and execCommand. */
async function copyText( text: string ): Promise< boolean > {
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

export function useCopyToClipboard(): { state: CopyState; copy: ( text: string ) => void } {
	const [ state, setState ] = useState< CopyState >( 'idle' );
	useEffect( () => {
		if ( state === 'idle' ) {
			return undefined;
		}
		const timer = window.setTimeout( () => setState( 'idle' ), SHOWN_MS );
		return () => window.clearTimeout( timer );
	}, [ state ] );
	const copy = useCallback( ( text: string ) => {
		void copyText( text ).then( ( ok ) => setState( ok ? 'copied' : 'failed' ) );
	}, [] );
	return { state, copy };
}
