import crypto from 'crypto';

/**
 * Finding and redacting a customer's personal data in stored JSON (event payloads) and text
 * (attempts' response excerpts). Pure functions; the PHP plugin has the same rules
 * (Privacy\Personal_Data_Json) for WordPress's own tables.
 *
 * A personal value is replaced by a stable marker, "redacted:sha256:<hex>", the SHA-256 of
 * the value trimmed and lowercased: the value cannot be read back, but two equal values
 * (the same email in two events) still compare equal, so deduplication and counting keep
 * working. Event ids, types, timestamps and ordering keys are never changed.
 */

/** Keys of an object that, when the object holds the customer's email, hold the customer's data too. */
export const PERSONAL_KEYS: readonly string[] = [
	'first_name',
	'last_name',
	'name',
	'full_name',
	'email',
	'phone',
	'company',
	'address_1',
	'address_2',
	'city',
	'postcode',
];

/** Keys whose values are the customer's name (listed by the export). */
const NAME_KEYS = [ 'name', 'full_name', 'first_name', 'last_name' ];

export const REDACTION_PREFIX = 'redacted:sha256:';

export function redactionMarker( value: string ): string {
	return (
		REDACTION_PREFIX + crypto.createHash( 'sha256' ).update( value.trim().toLowerCase(), 'utf8' ).digest( 'hex' )
	);
}

export function isRedactionMarker( value: unknown ): boolean {
	return typeof value === 'string' && /^redacted:sha256:[0-9a-f]{64}$/.test( value );
}

/** What an export lists of one record: the customer's name and email as stored. */
export interface PersonalFields {
	name?: string;
	email?: string;
	phone?: string;
}

function isObject( value: unknown ): value is Record< string, unknown > {
	return typeof value === 'object' && value !== null && ! Array.isArray( value );
}

function holdsEmail( object: Record< string, unknown >, email: string ): boolean {
	return Object.values( object ).some(
		( value ) => typeof value === 'string' && value.trim().toLowerCase() === email
	);
}

function normalEmail( email: string ): string {
	return email.trim().toLowerCase();
}

/** Every object (depth first) of a JSON value. */
function* objectsOf( value: unknown ): Generator< Record< string, unknown > > {
	if ( Array.isArray( value ) ) {
		for ( const item of value ) {
			yield* objectsOf( item );
		}
	} else if ( isObject( value ) ) {
		yield value;
		for ( const item of Object.values( value ) ) {
			yield* objectsOf( item );
		}
	}
}

/**
 * The customer's data in a JSON value: for every object holding a string equal to `email`
 * (case-insensitive), its name (name, or first_name + last_name), email and phone. Empty:
 * the email only appears inside a longer string, or not at all (no match).
 */
export function findPersonalFields( json: unknown, email: string ): PersonalFields[] {
	const wanted = normalEmail( email );
	const found: PersonalFields[] = [];
	for ( const object of objectsOf( json ) ) {
		if ( ! holdsEmail( object, wanted ) ) {
			continue;
		}
		const text = ( key: string ) =>
			typeof object[ key ] === 'string' && ( object[ key ] as string ).trim() !== ''
				? ( object[ key ] as string )
				: undefined;
		const joined = [ text( 'first_name' ), text( 'last_name' ) ].filter( Boolean ).join( ' ' );
		const name = text( 'name' ) ?? text( 'full_name' ) ?? ( joined === '' ? undefined : joined );
		const emailValue = Object.values( object ).find(
			( value ) => typeof value === 'string' && value.trim().toLowerCase() === wanted
		) as string;
		const fields: PersonalFields = { email: emailValue };
		if ( name !== undefined ) {
			fields.name = name;
		}
		if ( text( 'phone' ) !== undefined ) {
			fields.phone = text( 'phone' );
		}
		found.push( fields );
	}
	return found;
}

/** True when the JSON value holds the email as a whole string value somewhere. */
export function jsonHoldsEmail( json: unknown, email: string ): boolean {
	return findPersonalFields( json, email ).length > 0;
}

function escapeRegExp( text: string ): string {
	return text.replace( /[.*+?^${}()|[\]\\]/g, '\\$&' );
}

/**
 * Replaces every occurrence (case-insensitive) of each value in `text` by its marker, in one
 * pass (longest value first), so a marker written is never matched again (its hex could hold "ada").
 */
export function redactText( text: string, values: Iterable< string > ): string {
	const sorted = [
		...new Set( [ ...values ].map( ( value ) => value.trim() ).filter( ( value ) => value.length >= 2 ) ),
	].sort( ( a, b ) => b.length - a.length );
	if ( sorted.length === 0 ) {
		return text;
	}
	return text.replace( new RegExp( sorted.map( escapeRegExp ).join( '|' ), 'gi' ), ( match ) =>
		redactionMarker( match )
	);
}

export interface JsonRedaction {
	value: unknown;
	/** The personal values replaced (as they were), to redact elsewhere (response excerpts). */
	replaced: string[];
}

/**
 * The JSON value with the customer's data replaced by markers: in every object holding the
 * email, the values of PERSONAL_KEYS; anywhere else, the email itself, also inside a longer
 * string (a note). Keys, numbers, ids and everything else stay as they were.
 */
export function redactJson( json: unknown, email: string ): JsonRedaction {
	const wanted = normalEmail( email );
	const replaced = new Set< string >();
	const redactString = ( value: string ): string => {
		if ( value.trim().toLowerCase() === wanted ) {
			replaced.add( value );
			return redactionMarker( value );
		}
		if ( value.toLowerCase().includes( wanted ) ) {
			replaced.add( email );
			return redactText( value, [ email ] );
		}
		return value;
	};
	const walk = ( value: unknown ): unknown => {
		if ( typeof value === 'string' ) {
			return redactString( value );
		}
		if ( Array.isArray( value ) ) {
			return value.map( walk );
		}
		if ( isObject( value ) ) {
			const personal = holdsEmail( value, wanted );
			const out: Record< string, unknown > = {};
			for ( const [ key, item ] of Object.entries( value ) ) {
				if (
					personal &&
					PERSONAL_KEYS.includes( key ) &&
					typeof item === 'string' &&
					item.trim() !== '' &&
					! isRedactionMarker( item )
				) {
					replaced.add( item );
					out[ key ] = redactionMarker( item );
				} else {
					out[ key ] = walk( item );
				}
			}
			return out;
		}
		return value;
	};
	const value = walk( json );
	return { value, replaced: [ ...replaced ] };
}

/** The name values among PERSONAL_KEYS of the objects holding the email (to redact them in excerpts too). */
export function nameValues( json: unknown, email: string ): string[] {
	const wanted = normalEmail( email );
	const values: string[] = [];
	for ( const object of objectsOf( json ) ) {
		if ( holdsEmail( object, wanted ) ) {
			for ( const key of NAME_KEYS ) {
				if ( typeof object[ key ] === 'string' && ( object[ key ] as string ).trim() !== '' ) {
					values.push( object[ key ] as string );
				}
			}
		}
	}
	return values;
}
