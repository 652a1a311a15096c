/**
 * Display helpers: dates and numbers in the viewer's locale (wp-admin's <html lang>, e.g.
 * fr-FR: 1,5 s, 99,5 %), durations, percentages.
 */
import { __, sprintf } from '@wordpress/i18n';

export const NONE = '—';

/** The page's language for Intl (wp-admin sets <html lang> from the user's locale). */
export function viewerLocale(): string | undefined {
	return document.documentElement.lang || undefined;
}

/** A number with exactly `digits` decimals, in the viewer's locale (a decimal comma in French). */
export function formatDecimal( value: number, digits: number ): string {
	return new Intl.NumberFormat( viewerLocale(), {
		minimumFractionDigits: digits,
		maximumFractionDigits: digits,
	} ).format( value );
}

export function formatDateTime( iso: string | null | undefined ): string {
	if ( ! iso ) {
		return NONE;
	}
	const date = new Date( iso );
	if ( Number.isNaN( date.getTime() ) ) {
		return iso;
	}
	return date.toLocaleString( viewerLocale(), {
		dateStyle: 'medium',
		timeStyle: 'medium',
	} );
}

export function formatDurationMs( ms: number | null | undefined ): string {
	if ( ms === null || ms === undefined ) {
		return NONE;
	}
	if ( ms < 1000 ) {
		return sprintf(
			/* translators: %d: a duration in milliseconds. */ __( '%d ms', 'service-integration' ),
			Math.round( ms )
		);
	}
	return sprintf(
		/* translators: %s: a duration in seconds, with one decimal, e.g. 1.5. */ __( '%s s', 'service-integration' ),
		formatDecimal( ms / 1000, 1 )
	);
}

export function formatUptime( seconds: number | undefined ): string {
	if ( seconds === undefined ) {
		return NONE;
	}
	const days = Math.floor( seconds / 86400 );
	const hours = Math.floor( ( seconds % 86400 ) / 3600 );
	const minutes = Math.floor( ( seconds % 3600 ) / 60 );
	if ( days > 0 ) {
		return sprintf(
			/* translators: 1: days, 2: hours. */ __( '%1$d d %2$d h', 'service-integration' ),
			days,
			hours
		);
	}
	if ( hours > 0 ) {
		return sprintf(
			/* translators: 1: hours, 2: minutes. */ __( '%1$d h %2$d min', 'service-integration' ),
			hours,
			minutes
		);
	}
	if ( minutes > 0 ) {
		return sprintf(
			/* translators: 1: minutes, 2: seconds. */ __( '%1$d min %2$d s', 'service-integration' ),
			minutes,
			Math.floor( seconds % 60 )
		);
	}
	return sprintf( /* translators: %d: seconds. */ __( '%d s', 'service-integration' ), Math.floor( seconds ) );
}

export function formatPercent( ratio: number ): string {
	const percent = formatDecimal( ratio * 100, ratio >= 0.995 || ratio === 0 ? 0 : 1 );
	return sprintf(
		/* translators: %s: a percentage, already formatted for the locale, e.g. 99.5. */ __(
			'%s %%',
			'service-integration'
		),
		percent
	);
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
