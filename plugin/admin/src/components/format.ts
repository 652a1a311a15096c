/**
 * Display helpers: dates in the viewer's locale, durations, percentages.
 */
import { __, sprintf } from '@wordpress/i18n';

export const NONE = '—';

export function formatDateTime( iso: string | null | undefined ): string {
	if ( ! iso ) {
		return NONE;
	}
	const date = new Date( iso );
	if ( Number.isNaN( date.getTime() ) ) {
		return iso;
	}
	return date.toLocaleString( document.documentElement.lang || undefined, {
		dateStyle: 'medium',
		timeStyle: 'medium',
	} );
}

export function formatDurationMs( ms: number | null | undefined ): string {
	if ( ms === null || ms === undefined ) {
		return NONE;
	}
	if ( ms < 1000 ) {
		/* translators: %d: a duration in milliseconds. */
		return sprintf( __( '%d ms', 'service-integration' ), Math.round( ms ) );
	}
	/* translators: %s: a duration in seconds, e.g. 1.5. */
	return sprintf( __( '%s s', 'service-integration' ), ( ms / 1000 ).toFixed( 1 ) );
}

export function formatUptime( seconds: number | undefined ): string {
	if ( seconds === undefined ) {
		return NONE;
	}
	const days = Math.floor( seconds / 86400 );
	const hours = Math.floor( ( seconds % 86400 ) / 3600 );
	const minutes = Math.floor( ( seconds % 3600 ) / 60 );
	if ( days > 0 ) {
		/* translators: 1: days, 2: hours. */
		return sprintf( __( '%1$d d %2$d h', 'service-integration' ), days, hours );
	}
	if ( hours > 0 ) {
		/* translators: 1: hours, 2: minutes. */
		return sprintf( __( '%1$d h %2$d min', 'service-integration' ), hours, minutes );
	}
	if ( minutes > 0 ) {
		/* translators: 1: minutes, 2: seconds. */
		return sprintf( __( '%1$d min %2$d s', 'service-integration' ), minutes, Math.floor( seconds % 60 ) );
	}
	/* translators: %d: seconds. */
	return sprintf( __( '%d s', 'service-integration' ), Math.floor( seconds ) );
}

export function formatPercent( ratio: number ): string {
	const percent = ( ratio * 100 ).toFixed( ratio >= 0.995 || ratio === 0 ? 0 : 1 );
	/* translators: %s: a percentage, e.g. 99.5. */
	return sprintf( __( '%s %%', 'service-integration' ), percent );
}

/** "datetime-local" input value (local time, no zone) → ISO 8601 in UTC, or null. */
export function localInputToIso( value: string ): string | null {
	if ( ! value ) {
		return null;
	}
	const date = new Date( value );
	return Number.isNaN( date.getTime() ) ? null : date.toISOString();
}

/** A Date → "datetime-local" input value in local time (minutes precision). */
export function isoToLocalInput( date: Date ): string {
	const pad = ( n: number ) => String( n ).padStart( 2, '0' );
	return `${ date.getFullYear() }-${ pad( date.getMonth() + 1 ) }-${ pad( date.getDate() ) }T${ pad( date.getHours() ) }:${ pad( date.getMinutes() ) }`;
}

/** A SelectControl option with a plain string value (so the control's value stays a string). */
export interface Option {
	label: string;
	value: string;
}
