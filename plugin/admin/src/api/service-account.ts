/**
 * The service account routes (plugin/includes/Rest/class-service-account-controller.php).
 */
import { request } from './client';

export interface ApplicationPassword {
	uuid: string;
	name: string;
	created: string;
	last_used: string | null;
	last_ip: string | null;
}

export interface ServiceAccountState {
	role_exists: boolean;
	/** PHP sends an empty object as `[]`; normalised to an object. */
	role_capabilities: Record< string, boolean >;
	expected_capabilities: Record< string, boolean >;
	widening_detected: string[];
	account: { id: number; username: string; email: string; roles: string[] } | null;
	application_passwords: ApplicationPassword[];
	application_passwords_available: boolean;
}

export interface CreatedAccount {
	id: number;
	username: string;
	roles: string[];
	created: boolean;
}

/** The only answer that ever holds the password. */
export interface CreatedPassword {
	password: string;
	uuid: string;
	name: string;
	created: number;
	username: string;
	authorization: string;
}

export interface CheckResult {
	method: string;
	route: string;
	expected: 'refused' | 'allowed' | string;
	status: number;
	code: string | null;
	passed: boolean;
}

export interface CheckReport {
	passed: boolean;
	account: string;
	authenticated: boolean;
	results: CheckResult[];
	error?: string;
}

function capabilityMap( value: unknown ): Record< string, boolean > {
	if ( typeof value !== 'object' || value === null || Array.isArray( value ) ) {
		return {};
	}
	return Object.fromEntries(
		Object.entries( value as Record< string, unknown > ).map( ( [ key, granted ] ) => [ key, Boolean( granted ) ] )
	);
}

export async function getServiceAccount(): Promise< ServiceAccountState > {
	const state = await request< ServiceAccountState >( 'GET', '/service-account' );
	return {
		...state,
		role_capabilities: capabilityMap( state.role_capabilities ),
		expected_capabilities: capabilityMap( state.expected_capabilities ),
		widening_detected: Array.isArray( state.widening_detected ) ? state.widening_detected : [],
		application_passwords: Array.isArray( state.application_passwords ) ? state.application_passwords : [],
	};
}

export function createServiceAccount(): Promise< CreatedAccount > {
	return request< CreatedAccount >( 'POST', '/service-account' );
}

export function createApplicationPassword( name: string ): Promise< CreatedPassword > {
	return request< CreatedPassword >( 'POST', '/service-account/application-passwords', { name } );
}

export function revokeApplicationPassword( uuid: string ): Promise< { revoked: boolean; uuid: string } > {
	return request( 'DELETE', `/service-account/application-passwords/${ encodeURIComponent( uuid ) }` );
}

export function resetWidening(): Promise< { widening_detected: string[] } > {
	return request( 'DELETE', '/service-account/widening' );
}

export function runLeastPrivilegeCheck(): Promise< CheckReport > {
	return request< CheckReport >( 'POST', '/service-account/check' );
}
