/**
 * The Service Integration admin page (wp-admin → Service Integration). Rendered into the
 * mount point Admin_Page prints; the REST root and nonce come from core's wp-api-fetch.
 */
import { createRoot } from '@wordpress/element';
import { App } from './App';
import './admin.css';

function mount(): void {
	const container = document.getElementById( 'service-integration-admin' );
	if ( container ) {
		createRoot( container ).render( <App /> );
	}
}

if ( document.readyState === 'loading' ) {
	document.addEventListener( 'DOMContentLoaded', mount );
} else {
	mount();
}
