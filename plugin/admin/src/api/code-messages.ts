/**
 * The sidecar's codes in the site's language: WordPress hands the page its one list
 * (ServiceIntegration\Sidecar\Sidecar_Messages::all(), printed by Admin_Page before the app),
 * so a code is translated in PHP only, for the page, the REST answers and WP-CLI alike.
 */

/** What Admin_Page prints as `window.serviceIntegrationAdmin`. */
interface AdminSettings {
	codeMessages?: Record< string, string >;
}

declare global {
	interface Window {
		serviceIntegrationAdmin?: AdminSettings;
	}
}

/** The translated message of a sidecar code, or null for a code WordPress does not know. */
export function codeMessage( code: string ): string | null {
	const messages = window.serviceIntegrationAdmin?.codeMessages ?? {};
	return Object.prototype.hasOwnProperty.call( messages, code ) ? ( messages[ code ] ?? null ) : null;
}
